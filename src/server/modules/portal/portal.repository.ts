import { and, count, desc, eq, gt, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  mailItems,
  mailroomLocations,
  mailrooms,
  organizationSettings,
  organizations,
  photos,
  recipientLinks,
  recipientSessions,
  recipients,
} from '../../db/schema';
import type { RecipientCaller } from '../../context';
import { WAITING_STATUSES, type Language, type NotifyChannel } from '../../../contract';
import { holdLatestSql } from '../mail-items/mail-items.repository';

const WAITING = [...WAITING_STATUSES];

/** The recipient's own rows, in their organization: every read of the page narrows by both. */
const ofRecipient = (caller: RecipientCaller) =>
  and(eq(mailItems.organizationId, caller.organizationId), eq(mailItems.recipientId, caller.recipientId));

/** Links, sessions and the page's reads (decision 032). */
export const portalRepository = {
  /**
   * Every active recipient, in any organization, with this email (any case) or this phone number
   * (its digits): who a requested link goes to. Platform code: no tenant scope. By the stored
   * normalised columns and their indexes (migration 0033, decision 051): the matching entries, not
   * every recipient of the platform (portal-lookup-plan.test.ts checks the plan).
   */
  async recipientsByAddress(db: DbOrTx, address: string) {
    const isEmail = address.includes('@');
    const digits = address.replace(/\D/g, '');
    return db
      .select({
        id: recipients.id,
        organizationId: recipients.organizationId,
        firstName: recipients.firstName,
        email: recipients.email,
        phone: recipients.phone,
        organizationName: organizations.name,
        language: recipients.language,
        preferredLanguage: recipients.preferredLanguage,
        organizationLanguage: organizationSettings.defaultLanguage,
      })
      .from(recipients)
      .innerJoin(organizations, eq(organizations.id, recipients.organizationId))
      .leftJoin(organizationSettings, eq(organizationSettings.organizationId, recipients.organizationId))
      .where(
        and(
          eq(recipients.isActive, true),
          isEmail ? eq(recipients.emailNormalized, address.toLowerCase()) : eq(recipients.phoneDigits, digits),
        ),
      )
      .limit(20);
  },

  /**
   * Uses the link, once: the update takes it only while it is unused and unexpired, so two tabs
   * exchanging the same link at once open one session between them.
   */
  async useLink(db: DbOrTx, tokenHash: string) {
    const [used] = await db
      .update(recipientLinks)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(recipientLinks.tokenHash, tokenHash),
          isNull(recipientLinks.usedAt),
          gt(recipientLinks.expiresAt, sql`now()`),
        ),
      )
      .returning({ organizationId: recipientLinks.organizationId, recipientId: recipientLinks.recipientId });
    return used;
  },

  async findLink(db: DbOrTx, tokenHash: string) {
    const [row] = await db.select().from(recipientLinks).where(eq(recipientLinks.tokenHash, tokenHash));
    return row;
  },

  async isActive(db: DbOrTx, caller: RecipientCaller): Promise<boolean> {
    const [row] = await db
      .select({ id: recipients.id })
      .from(recipients)
      .where(
        and(
          eq(recipients.organizationId, caller.organizationId),
          eq(recipients.id, caller.recipientId),
          eq(recipients.isActive, true),
        ),
      );
    return !!row;
  },

  async insertSession(db: DbOrTx, sid: string, caller: RecipientCaller, expire: Date) {
    await db.insert(recipientSessions).values({ sid, ...caller, expire });
  },

  /** A live session of a recipient who is still active (deactivation and erasure end it at once). */
  async findLiveSession(db: DbOrTx, sid: string) {
    const [row] = await db
      .select({
        organizationId: recipientSessions.organizationId,
        recipientId: recipientSessions.recipientId,
        expire: recipientSessions.expire,
      })
      .from(recipientSessions)
      .innerJoin(
        recipients,
        and(
          eq(recipients.organizationId, recipientSessions.organizationId),
          eq(recipients.id, recipientSessions.recipientId),
        ),
      )
      .where(
        and(eq(recipientSessions.sid, sid), gt(recipientSessions.expire, sql`now()`), eq(recipients.isActive, true)),
      );
    return row && { caller: { organizationId: row.organizationId, recipientId: row.recipientId }, expire: row.expire };
  },

  async extendSession(db: DbOrTx, sid: string, expire: Date) {
    await db.update(recipientSessions).set({ expire }).where(eq(recipientSessions.sid, sid));
  },

  /** Housekeeping: links past their expiry (used or not) and ended sessions are of no use to anyone. */
  async sweepExpired(db: DbOrTx) {
    await db.delete(recipientLinks).where(lt(recipientLinks.expiresAt, sql`now()`));
    await db.delete(recipientSessions).where(lt(recipientSessions.expire, sql`now()`));
  },

  async deleteSession(db: DbOrTx, sid: string) {
    await db.delete(recipientSessions).where(eq(recipientSessions.sid, sid));
  },

  async me(db: DbOrTx, caller: RecipientCaller) {
    const [row] = await db
      .select({
        id: recipients.id,
        firstName: recipients.firstName,
        lastName: recipients.lastName,
        email: recipients.email,
        phone: recipients.phone,
        notifyChannels: recipients.notifyChannels,
        organizationName: organizations.name,
        language: recipients.language,
        preferredLanguage: recipients.preferredLanguage,
        organizationLanguage: organizationSettings.defaultLanguage,
      })
      .from(recipients)
      .innerJoin(organizations, eq(organizations.id, recipients.organizationId))
      .leftJoin(organizationSettings, eq(organizationSettings.organizationId, recipients.organizationId))
      .where(and(eq(recipients.organizationId, caller.organizationId), eq(recipients.id, caller.recipientId)));
    return row;
  },

  /** The recipient's own choice of language on their page (decision 066). */
  async setLanguage(db: DbOrTx, caller: RecipientCaller, language: Language) {
    await db
      .update(recipients)
      .set({ language, updatedAt: new Date() })
      .where(and(eq(recipients.organizationId, caller.organizationId), eq(recipients.id, caller.recipientId)));
  },

  async setNotifyChannels(db: DbOrTx, caller: RecipientCaller, notifyChannels: NotifyChannel[] | null) {
    await db
      .update(recipients)
      .set({ notifyChannels, updatedAt: new Date() })
      .where(and(eq(recipients.organizationId, caller.organizationId), eq(recipients.id, caller.recipientId)));
  },

  /** A page of the recipient's waiting (oldest first: the next to collect) or past (newest first) items. */
  async items(
    db: DbOrTx,
    caller: RecipientCaller,
    state: 'waiting' | 'past',
    limit: number,
    offset: number,
    id?: string,
  ) {
    const where = and(
      ofRecipient(caller),
      state === 'waiting' ? inArray(mailItems.status, WAITING) : notInArray(mailItems.status, WAITING),
      id ? eq(mailItems.id, id) : undefined,
    );
    const rows = await db
      .select({
        id: mailItems.id,
        type: mailItems.type,
        status: mailItems.status,
        trackingNumber: mailItems.trackingNumber,
        sender: mailItems.sender,
        courierCompany: mailItems.courierCompany,
        locationName: mailroomLocations.name,
        mailroomName: mailrooms.name,
        arrivedAt: mailItems.arrivedAt,
        deliveredAt: mailItems.deliveredAt,
        collectorName: mailItems.collectorName,
        heldUntil: mailItems.heldUntil,
        photoId: mailItems.photoId,
        // What the hold control offers (decision 052); only a waiting item can be held.
        holdLatest: sql<string | null>`case when ${inArray(mailItems.status, WAITING)}
          then ${holdLatestSql(mailItems.organizationId, mailItems.id, mailItems.recipientId)} end`,
      })
      .from(mailItems)
      .leftJoin(
        mailroomLocations,
        and(
          eq(mailroomLocations.organizationId, mailItems.organizationId),
          eq(mailroomLocations.id, mailItems.locationId),
        ),
      )
      .leftJoin(
        mailrooms,
        and(
          eq(mailrooms.organizationId, mailItems.organizationId),
          or(eq(mailrooms.id, mailItems.mailroomId), eq(mailrooms.id, mailroomLocations.mailroomId)),
        ),
      )
      .where(where)
      .orderBy(state === 'waiting' ? mailItems.arrivedAt : desc(mailItems.arrivedAt), mailItems.id)
      .limit(limit)
      .offset(offset);
    const [total] = await db.select({ n: count() }).from(mailItems).where(where);
    return { rows, total: total?.n ?? 0 };
  },

  /** The item's photo, only when the item is this recipient's in this organization. */
  async photoOf(db: DbOrTx, caller: RecipientCaller, itemId: string, variant: 'full' | 'thumbnail') {
    const [row] = await db
      .select({
        contentType: photos.contentType,
        bytes: variant === 'full' ? photos.data : photos.thumbnail,
      })
      .from(mailItems)
      .innerJoin(photos, and(eq(photos.organizationId, mailItems.organizationId), eq(photos.id, mailItems.photoId)))
      .where(and(ofRecipient(caller), eq(mailItems.id, itemId)));
    return row && { contentType: variant === 'full' ? row.contentType : 'image/jpeg', bytes: row.bytes };
  },
};
