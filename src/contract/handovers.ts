import { z } from 'zod';
import { Id, Timestamp, optionalText } from './common';
import { PHOTO_TOO_LARGE } from './mail-items';
import { PickupCode } from './pickups';

/** How the desk knew the collector (decision 031). */
export const IDENTIFIED_BY = ['pickup_code', 'id_checked', 'known_to_staff'] as const;
export type IdentifiedBy = (typeof IDENTIFIED_BY)[number];
export const IDENTIFIED_BY_LABELS: Record<IdentifiedBy, string> = {
  pickup_code: 'pickup code',
  id_checked: 'ID checked',
  known_to_staff: 'known to staff',
};

/** The items one hand-over may take: more than any person carries away at once. */
export const HANDOVER_MAX_ITEMS = 100;
/** A signature pad's PNG is a few kilobytes; anything near this is not a drawn signature. */
export const SIGNATURE_MAX_BYTES = 300 * 1024;
/**
 * The pixels of the largest pad (decision 050): the hand-over dialog's pad is at most 528 x 160 CSS
 * pixels, drawn at the screen's density up to 3 (SignaturePad.tsx), so 1584 x 480; half as much
 * again for another client. The server reads these from the PNG's header before decoding anything.
 */
export const SIGNATURE_MAX_WIDTH = 2400;
export const SIGNATURE_MAX_HEIGHT = 800;
/** The screen density the pad draws at, at most (a zoomed-in browser reports 5 and more). */
export const SIGNATURE_PAD_MAX_DENSITY = 3;
/** A reason for a collector not on the list: a few words, not a letter (decision 050). */
export const PROXY_REASON_MIN_LENGTH = 10;

export const SIGNATURE_INVALID = 'The signature must be a PNG image drawn on the signature pad';
export const SIGNATURE_TOO_LARGE = 'The signature image is larger than 300 KB';
export const SIGNATURE_TOO_MANY_PIXELS = `The signature must be at most ${SIGNATURE_MAX_WIDTH} x ${SIGNATURE_MAX_HEIGHT} pixels, the size of a signature pad`;
export const TOO_MANY_SIGNATURES = 'Too many signed hand-overs in a minute. Wait a moment and try again';
export const PICKUP_CODE_REQUIRED =
  'Enter the pickup code the collector showed, or choose how else they were identified';
export const pickupCodeNotTheirs = (name: string) =>
  `This pickup code is not ${name}’s. Check it, or choose how else the collector was identified`;
export const PROXY_REASON_TOO_SHORT = `Say why they collect in a few words (at least ${PROXY_REASON_MIN_LENGTH} characters)`;
export const SIGNATURE_EMPTY = 'The signature is empty. Ask the collector to sign';
export const SIGNATURE_REQUIRED = 'A signature is required for every hand-over';
export const HANDOVER_PHOTO_REQUIRED = 'A photo of the collector is required for every hand-over';
export const MIXED_RECIPIENTS = 'Items of different recipients are handed over one recipient at a time';
export const HANDOVER_NOT_FOUND = 'Hand-over not found';
/**
 * An edit (PUT /api/mail-items/:id) never marks an item delivered (issue 42, decision 053): every
 * "delivered" goes through the one hand-over, which records who collected, how they were
 * identified and the proof.
 */
export const DELIVERED_BY_HANDOVER_ONLY =
  'An item is marked delivered only by a hand-over, which records who collected it and how they were identified. ' +
  'Use Hand over (POST /api/handovers) instead of changing the status.';

const itemIds = z
  .array(Id, { message: 'Choose the items to hand over' })
  .min(1, 'Choose at least one item to hand over')
  .max(HANDOVER_MAX_ITEMS, `At most ${HANDOVER_MAX_ITEMS} items are handed over at once`)
  .refine((ids) => new Set(ids).size === ids.length, 'An item is listed twice');

/** POST /api/handovers: the items and the proof, all handed over together or none. */
export const HandOverBody = z.object({
  itemIds,
  collectorName: z
    .string({ message: 'Collector name is required' })
    .trim()
    .min(1, 'Collector name is required')
    .max(255, 'Collector name must be less than 255 characters'),
  identifiedBy: z.enum(IDENTIFIED_BY, {
    message: 'Say how the collector was identified: pickup code, ID checked or known to staff',
  }),
  /**
   * The code the collector showed (typed, scanned or read by the camera), required with
   * `identifiedBy: 'pickup_code'` and checked against the recipient's current code (decision 050).
   */
  pickupCode: PickupCode.nullish(),
  /** The drawn signature: a PNG data URL (or bare base64). */
  signatureData: z
    .string()
    .max(Math.ceil((SIGNATURE_MAX_BYTES * 4) / 3) + 100, SIGNATURE_TOO_LARGE)
    .nullish(),
  /** A photo of the collector or what they carried away, like an item's photo. */
  photoData: z.string().max(15_000_000, PHOTO_TOO_LARGE).nullish(),
  /** Why someone not on the recipient's list of proxies collects. */
  proxyReason: optionalText(500, 'The reason must be less than 500 characters').refine(
    (reason) => !reason || reason.replace(/\s+/g, ' ').length >= PROXY_REASON_MIN_LENGTH,
    PROXY_REASON_TOO_SHORT,
  ),
});
export type HandOverBody = z.input<typeof HandOverBody>;

/** The proof of a hand-over, as its item's timeline, History and the receipt show it. */
export const Handover = z.object({
  id: z.uuid(),
  recipientId: z.uuid().nullable(),
  collectorName: z.string(),
  identifiedBy: z.enum(IDENTIFIED_BY),
  proxyReason: z.string().nullable(),
  /** URLs of the signature and the photo (members of the organization only); never the bytes. */
  signatureUrl: z.string().nullable(),
  photoUrl: z.string().nullable(),
  handedOverBy: z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string() }).nullable(),
  /** The API key the hand-over came through (an integration, not a person at the desk); null: the desk. */
  apiKeyName: z.string().nullable(),
  createdAt: Timestamp,
  itemIds: z.array(z.uuid()),
});
export type Handover = z.infer<typeof Handover>;
