import { z } from 'zod';
import { Timestamp } from './common';
import { LanguageCode } from './language-codes';
import { limitParam, offsetParam } from './pagination';
import { NotifyChannel } from './notify-channels';
import { RecipientPickupCode } from './pickups';

/**
 * The recipient's own page (issue 26, decision 032): signed in by a single-use link sent by email
 * or SMS, never with a staff account.
 */

/** A requested link works this long; the one in an arrival or reminder email, a week. */
export const PORTAL_REQUESTED_LINK_MINUTES = 15;
export const PORTAL_EMAILED_LINK_DAYS = 7;

/** The same answer whether or not the address belongs to anyone: it tells nothing about who is known. */
export const PORTAL_LINK_SENT =
  'If this address belongs to a recipient, a link is on its way. It works once, for 15 minutes.';

/** POST /api/portal/links: an email address or a phone number. */
export const PortalLinkRequestBody = z.object({
  address: z
    .string({ message: 'Enter your email address or phone number' })
    .trim()
    .min(1, 'Enter your email address or phone number')
    .max(255, 'That is too long for an email address or phone number')
    .refine(
      (v) => (v.includes('@') ? z.email().safeParse(v).success : v.replace(/\D/g, '').length >= 6),
      'Enter a valid email address or phone number',
    ),
});
export type PortalLinkRequestBody = z.input<typeof PortalLinkRequestBody>;
export const PortalLinkRequestReply = z.object({ message: z.string() });

/** POST /api/portal/session: the token of a link, exchanged for the page's session cookie. */
export const PortalExchangeBody = z.object({
  token: z
    .string({ message: 'The link is incomplete' })
    .trim()
    .min(1, 'The link is incomplete')
    .max(200, 'The link is not valid'),
});

/** Why a link did not open the page; the page then offers to send a new one. */
export const PORTAL_LINK_ERRORS = {
  invalid: 'This link is not valid. Ask for a new one below.',
  expired: 'This link has expired. Ask for a new one below.',
  used: 'This link has already been used. Ask for a new one below.',
} as const;

/** GET /api/portal/me: who is signed in, where, and their code. */
export const PortalMe = z.object({
  recipient: z.object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    /** The channels they chose; null: every channel offered (decision 065). */
    notifyChannels: z.array(NotifyChannel).nullable(),
    /**
     * The language they chose (or their directory gave them), null when none (decision 066): the
     * page then follows the browser's languages, then `organization.defaultLanguage`.
     */
    language: LanguageCode.nullable(),
  }),
  organization: z.object({ name: z.string(), defaultLanguage: LanguageCode }),
  /** Whether the organization can send SMS at all. */
  smsAvailable: z.boolean(),
  /**
   * The channels the organization really has and that reach this person, in NOTIFY_CHANNELS'
   * order: exactly what the page offers to choose from (decision 065).
   */
  channelsOffered: z.array(NotifyChannel),
  pickupCode: RecipientPickupCode,
});
export type PortalMe = z.infer<typeof PortalMe>;

/**
 * PUT /api/portal/preferences: the channels to be told on, a non-empty set within channelsOffered;
 * null goes back to every channel offered.
 */
export const PortalPreferencesBody = z.object({
  notifyChannels: z
    .array(NotifyChannel, { message: 'notifyChannels must be a list of channels' })
    .max(NotifyChannel.options.length)
    .nullable(),
});

/** PUT /api/portal/language: the recipient's own language, for their page and their messages (decision 066). */
export const PortalLanguageBody = z.object({ language: LanguageCode });

export const PORTAL_ITEM_STATES = ['waiting', 'past'] as const;
export const PortalItemsQuery = z.object({
  state: z.enum(PORTAL_ITEM_STATES, { message: 'state must be waiting or past' }).default('waiting'),
  limit: limitParam(50, 20),
  offset: offsetParam,
});

/** One of the recipient's items as their page shows it; the photo is fetched by its own URL. */
export const PortalItem = z.object({
  id: z.uuid(),
  type: z.string(),
  status: z.string(),
  trackingNumber: z.string().nullable(),
  sender: z.string().nullable(),
  courierCompany: z.string().nullable(),
  /** The shelf or bin, and its mailroom: where the desk will fetch it from. */
  location: z.string().nullable(),
  arrivedAt: Timestamp,
  deliveredAt: Timestamp.nullable(),
  /** Who collected it, as recorded with the hand-over; null: not recorded (issue 41 item 6). */
  collectorName: z.string().nullable(),
  heldUntil: Timestamp.nullable(),
  /**
   * The last day (YYYY-MM-DD, the organization's calendar) the item may be held until: at most
   * MAX_HOLD_DAYS ahead and the organization's longest hold from the day it was first held
   * (decision 052); before today when that is used up. Null for an item no longer waiting.
   */
  holdLatest: z.string().nullable(),
  /** GET /api/portal/items/{id}/photo serves it, to this recipient's session only. */
  hasPhoto: z.boolean(),
});
export type PortalItem = z.infer<typeof PortalItem>;
export const PortalItemPage = z.object({ items: z.array(PortalItem), total: z.number().int() });
export type PortalItemPage = z.infer<typeof PortalItemPage>;
