import { and, eq } from 'drizzle-orm';
import {
  PORTAL_LINK_ERRORS,
  PORTAL_LINK_SENT,
  PORTAL_REQUESTED_LINK_MINUTES,
  type NotifyChannel,
  isSupportedLanguage,
  recipientLanguage,
  resolveLanguage,
  type Language,
  type PortalItem,
  type PortalItemPage,
  type PortalMe,
  type Proxy,
  type RecipientPickupCode,
} from '../../../contract';
import { integrations } from '../../db/schema';
import type { Deps, RecipientCaller } from '../../context';
import type { DbOrTx } from '../../db/client';
import { rateLimitAddress } from '../../lib/client-address';
import { AppError, notFound, tooManyRequests, unauthorized } from '../../lib/errors';
import * as rateLimiter from '../../lib/rate-limiter';
import { hashToken, newToken } from '../../lib/tokens';
import { addMs } from '../../lib/time';
import { LINK_TOKEN_PLACEHOLDER, PLATFORM_MESSAGE_EVENTS, queueMessage } from '../../lib/outbox';
import { RECIPIENT_SESSION_TTL_MS } from '../../plugins/recipient-session';
import { MAIL_ITEM_NOT_FOUND, type MailItemsService } from '../mail-items/mail-items.service';
import { hasSmsAccount } from '../notifications/fan-out';
import { activeIntegrations, checkChoice, recipientChannels, smsReady } from '../notifications/recipient-channels';
import type { PickupsService } from '../pickups/pickups.service';
import { portalLinkUrl } from '../recipients/page-links';
import { portalRepository } from './portal.repository';
import { messagesIn } from '../../lib/catalogues';

/** Requests for a link: per address (the inbox being flooded) and per IP (someone trying addresses). */
export const LINK_LIMIT_PER_ADDRESS = 3;
const LINK_LIMIT_PER_IP = 10;
const LINK_WINDOW_SECONDS = 15 * 60;
/** Exchanges per IP: a token is 256 bits, this only keeps the table from being hammered. */
const EXCHANGE_LIMIT_PER_IP = 30;
const EXCHANGE_WINDOW_SECONDS = 5 * 60;
const LINK_RATE_LIMITED = 'Too many links were asked for. Wait a few minutes, then try again.';
const EXCHANGE_RATE_LIMITED = 'Too many attempts to open a link. Wait a few minutes, then try again.';

/**
 * Writes of the recipient's page (holds, expected packages, proxies, preferences, a new code): each
 * writes rows and most tell every desk live, so they have a rate (decision 052). Per recipient: a
 * person changes a few things a minute, 20 is far above that and 200 toggles in 1.7 s are not it.
 * Per organization: many sessions (one script, many recipients' links) together, 300 a minute.
 */
export const PORTAL_WRITES_PER_RECIPIENT = 20;
export const PORTAL_WRITES_PER_ORGANIZATION = 300;
const PORTAL_WRITE_WINDOW_SECONDS = 60;
export const PORTAL_WRITES_LIMITED =
  'You are making changes faster than the desk allows. Wait a minute, then try again.';

/** One write of the recipient's page, counted per recipient then per organization; 429 past either. */
export async function throttlePortalWrite(db: DbOrTx, caller: RecipientCaller): Promise<void> {
  const own = await rateLimiter.hit(
    db,
    `portal-write:recipient:${caller.organizationId}:${caller.recipientId}`,
    PORTAL_WRITES_PER_RECIPIENT,
    PORTAL_WRITE_WINDOW_SECONDS,
  );
  // A recipient over their own rate is not counted against the organization's: one person's
  // script does not lock the other recipients out.
  if (!own.allowed) throw tooManyRequests(PORTAL_WRITES_LIMITED, own.retryAfterSeconds);
  const all = await rateLimiter.hit(
    db,
    `portal-write:organization:${caller.organizationId}`,
    PORTAL_WRITES_PER_ORGANIZATION,
    PORTAL_WRITE_WINDOW_SECONDS,
  );
  if (!all.allowed) throw tooManyRequests(PORTAL_WRITES_LIMITED, all.retryAfterSeconds);
}

type ItemRow = Awaited<ReturnType<typeof portalRepository.items>>['rows'][number];

const toPortalItem = (r: ItemRow): PortalItem => ({
  id: r.id,
  type: r.type,
  status: r.status,
  trackingNumber: r.trackingNumber,
  sender: r.sender,
  courierCompany: r.courierCompany,
  location: r.locationName ? `${r.locationName}${r.mailroomName ? `, ${r.mailroomName}` : ''}` : r.mailroomName,
  arrivedAt: r.arrivedAt.toISOString(),
  deliveredAt: r.deliveredAt?.toISOString() ?? null,
  collectorName: r.collectorName,
  heldUntil: r.heldUntil?.toISOString() ?? null,
  holdLatest: r.holdLatest,
  hasPhoto: r.photoId !== null,
});

/** The requested link's email (subject, text) and SMS in a language (decision 066). */
export function linkMessage(language: Language, to: { firstName: string; organizationName: string; url: string }) {
  const t = messagesIn(language);
  const org = to.organizationName;
  return {
    subject: t('link.subject', { org }),
    text: [
      t('email.greeting', { firstName: to.firstName }),
      '',
      t('link.open', { org }),
      to.url,
      '',
      t('link.validity', { minutes: PORTAL_REQUESTED_LINK_MINUTES }),
    ].join('\n'),
    sms: t('link.sms', { org, minutes: PORTAL_REQUESTED_LINK_MINUTES, url: to.url }),
  };
}

export function createPortalService(deps: Deps, services: { pickups: PickupsService; mailItems: MailItemsService }) {
  const { db, log } = deps;
  const { pickups, mailItems } = services;
  /** Email goes out without an organization integration when the platform has SMTP_URL (as the fan-out says). */
  const platformEmail = Boolean(deps.config.smtpUrl);

  async function smsIntegrationOf(organizationId: string) {
    const rows = await db
      .select()
      .from(integrations)
      .where(
        and(
          eq(integrations.organizationId, organizationId),
          eq(integrations.type, 'sms'),
          eq(integrations.isActive, true),
        ),
      )
      .orderBy(integrations.createdAt);
    return rows.find(hasSmsAccount);
  }

  /**
   * Queues one recipient's link: by email to an email address, by the organization's SMS to a
   * phone. The worker sends it and mints the link's token as it does (decision 054), so the
   * outbox never holds a link that opens the page.
   */
  async function sendLink(
    match: Awaited<ReturnType<typeof portalRepository.recipientsByAddress>>[number],
    byEmail: boolean,
  ) {
    const url = portalLinkUrl(deps.publicUrl(), LINK_TOKEN_PLACEHOLDER);
    const common = {
      event: PLATFORM_MESSAGE_EVENTS.portalLink,
      kind: 'portal_link',
      organizationId: match.organizationId,
      recipientId: match.id,
      mint: { kind: 'portal' },
    } as const;
    // In the recipient's language, else their organization's (decision 066).
    const message = linkMessage(recipientLanguage(match, match.organizationLanguage), {
      firstName: match.firstName,
      organizationName: match.organizationName,
      url,
    });
    if (byEmail && match.email) {
      await queueMessage(db, {
        ...common,
        channel: 'email',
        to: match.email,
        subject: message.subject,
        text: message.text,
      });
      return;
    }
    const sms = await smsIntegrationOf(match.organizationId);
    if (!sms || !match.phone) return;
    await queueMessage(db, { ...common, channel: 'sms', integrationId: sms.id, to: match.phone, body: message.sms });
  }

  async function limit(key: string, max: number, windowSeconds: number, message: string) {
    const hit = await rateLimiter.hit(db, key, max, windowSeconds);
    if (!hit.allowed) throw tooManyRequests(message, hit.retryAfterSeconds);
  }

  return {
    /**
     * Sends a link to every active recipient with this address, in every organization, and
     * answers the same whoever it is. The messages are queued after the reply, so its timing does
     * not tell either; `sent` resolves when they are in the outbox (tests drain the worker).
     */
    async requestLink(address: string, ip: string): Promise<{ message: string; sent: Promise<void> }> {
      const byEmail = address.includes('@');
      const key = byEmail ? address.toLowerCase() : address.replace(/\D/g, '');
      // Per IPv4 address, per IPv6 /64 (decision 051): one subscriber's /64 is one caller.
      await limit(`portal-link:ip:${rateLimitAddress(ip)}`, LINK_LIMIT_PER_IP, LINK_WINDOW_SECONDS, LINK_RATE_LIMITED);
      // By the address's hash: the limiter's table must not hold a recipient's email or phone,
      // which an erasure (decision 015) could not find there.
      const addressKey = `portal-link:address:${hashToken(key)}`;
      await limit(addressKey, LINK_LIMIT_PER_ADDRESS, LINK_WINDOW_SECONDS, LINK_RATE_LIMITED);
      const sent = (async () => {
        const matches = await portalRepository.recipientsByAddress(db, address);
        for (const match of matches) {
          try {
            await sendLink(match, byEmail);
          } catch (err) {
            log.warn({ err, organizationId: match.organizationId }, 'A recipient link was not sent');
          }
        }
      })();
      return { message: PORTAL_LINK_SENT, sent };
    },

    /**
     * Exchanges a link's token for a session. A used link opened again where that recipient is
     * already signed in just opens the page (`current`); otherwise expired, used and unknown links
     * each say so (410 and 400 with their code), so the page can offer a new one.
     */
    async exchange(
      token: string,
      ip: string,
      current: RecipientCaller | undefined,
    ): Promise<{ token: string; expire: Date; caller: RecipientCaller } | { reuse: RecipientCaller }> {
      await limit(
        `portal-exchange:ip:${rateLimitAddress(ip)}`,
        EXCHANGE_LIMIT_PER_IP,
        EXCHANGE_WINDOW_SECONDS,
        EXCHANGE_RATE_LIMITED,
      );
      const tokenHash = hashToken(token);
      const used = await portalRepository.useLink(db, tokenHash);
      if (used && (await portalRepository.isActive(db, used))) {
        const sessionToken = newToken();
        const expire = addMs(new Date(), RECIPIENT_SESSION_TTL_MS);
        await portalRepository.insertSession(db, hashToken(sessionToken), used, expire);
        return {
          token: sessionToken,
          expire,
          caller: { organizationId: used.organizationId, recipientId: used.recipientId },
        };
      }
      // Used just now for a recipient no longer active: as good as no link.
      const link = used ? undefined : await portalRepository.findLink(db, tokenHash);
      if (link && current?.organizationId === link.organizationId && current.recipientId === link.recipientId) {
        return { reuse: current };
      }
      if (!link) throw new AppError(400, PORTAL_LINK_ERRORS.invalid, 'link_invalid');
      if (link.usedAt) throw new AppError(410, PORTAL_LINK_ERRORS.used, 'link_used');
      throw new AppError(410, PORTAL_LINK_ERRORS.expired, 'link_expired');
    },

    async signOut(sid: string | null): Promise<void> {
      if (sid) await portalRepository.deleteSession(db, sid);
    },

    async me(caller: RecipientCaller): Promise<PortalMe> {
      const row = await portalRepository.me(db, caller);
      if (!row) throw unauthorized();
      const [code, active] = await Promise.all([
        pickups.code(caller, caller.recipientId),
        activeIntegrations(db, caller.organizationId),
      ]);
      const channels = recipientChannels(row, active, platformEmail);
      return {
        recipient: {
          id: row.id,
          firstName: row.firstName,
          lastName: row.lastName,
          email: row.email,
          phone: row.phone,
          notifyChannels: row.notifyChannels,
          language: isSupportedLanguage(row.language) ? row.language : resolveLanguage(row.preferredLanguage),
        },
        organization: {
          name: row.organizationName,
          defaultLanguage: recipientLanguage(null, row.organizationLanguage),
        },
        smsAvailable: active.some((i) => i.type === 'sms' && smsReady(i)),
        channelsOffered: channels.offered,
        pickupCode: code,
      };
    },

    newCode: (caller: RecipientCaller): Promise<RecipientPickupCode> => pickups.regenerate(caller, caller.recipientId),

    /** The page's language switch: their page and their messages follow it (decision 066); rated like the page's writes. */
    async setLanguage(caller: RecipientCaller, language: Language): Promise<PortalMe> {
      await portalRepository.setLanguage(db, caller, language);
      return this.me(caller);
    },

    /**
     * The channels to be told on (decision 065): null (every channel offered) or a non-empty set
     * of the channels offered to them now; 400 otherwise, and nothing changes.
     */
    async setNotifyChannels(caller: RecipientCaller, choice: NotifyChannel[] | null): Promise<PortalMe> {
      const row = await portalRepository.me(db, caller);
      if (!row) throw unauthorized();
      const offered = recipientChannels(
        row,
        await activeIntegrations(db, caller.organizationId),
        platformEmail,
      ).offered;
      await portalRepository.setNotifyChannels(db, caller, checkChoice(choice, offered));
      return this.me(caller);
    },

    async items(
      caller: RecipientCaller,
      state: 'waiting' | 'past',
      limit: number,
      offset: number,
    ): Promise<PortalItemPage> {
      const { rows, total } = await portalRepository.items(db, caller, state, limit, offset);
      return { items: rows.map(toPortalItem), total };
    },

    async photo(caller: RecipientCaller, itemId: string, variant: 'full' | 'thumbnail') {
      const photo = await portalRepository.photoOf(db, caller, itemId, variant);
      if (!photo) throw notFound('Photo not found');
      return photo;
    },

    /** The hold itself is the mail items' rule (decision 035); the reply is the item as the page shows it. */
    async hold(caller: RecipientCaller, itemId: string, until: string | null): Promise<PortalItem> {
      await mailItems.hold(caller, itemId, until);
      const { rows } = await portalRepository.items(db, caller, 'waiting', 1, 0, itemId);
      if (!rows[0]) throw notFound(MAIL_ITEM_NOT_FOUND);
      return toPortalItem(rows[0]);
    },

    proxies: (caller: RecipientCaller): Promise<Proxy[]> => pickups.proxies(caller, caller.recipientId),
    addProxy: (caller: RecipientCaller, name: string): Promise<Proxy> =>
      pickups.addProxy(caller, caller.recipientId, name),
    removeProxy: (caller: RecipientCaller, proxyId: string): Promise<void> =>
      pickups.removeProxy(caller, caller.recipientId, proxyId),
  };
}

export type PortalService = ReturnType<typeof createPortalService>;
