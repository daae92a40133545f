import crypto from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { IdentifiedBy } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { handovers, mailItems, users } from '../../db/schema';
import type { ProcessedPhoto } from '../photos/photo-processing';
import type { Queryable } from './mail-items.writes';

export type HandoverValues = {
  organizationId: string;
  recipientId: string | null;
  collectorName: string;
  identifiedBy: IdentifiedBy;
  proxyReason: string | null;
  signature: ProcessedPhoto | undefined;
  photo: ProcessedPhoto | undefined;
  handedOverBy: string;
  /** The API key the hand-over came through; its name is recorded with it (decision 050). */
  apiKeyId: string | null;
};

export type RecordedHandover = {
  id: string;
  signaturePhotoId: string | null;
  photoId: string | null;
  apiKeyName: string | null;
};

/**
 * The proof of a hand-over: its signature and photo (rows of `photos`, like an item's photo) and
 * the hand-over row, in one statement on the writer's transaction (mail-items.writes.ts), so the
 * items handed over and their proof commit together.
 */
export async function recordHandover(db: Queryable, v: HandoverValues): Promise<RecordedHandover> {
  const ids = {
    id: crypto.randomUUID(),
    signaturePhotoId: v.signature ? crypto.randomUUID() : null,
    photoId: v.photo ? crypto.randomUUID() : null,
  };
  const photo = (p: ProcessedPhoto | undefined) => [
    p?.contentType ?? null,
    p?.data ?? null,
    p?.thumbnail ?? null,
    p?.width ?? null,
    p?.height ?? null,
  ];
  const { rows } = await db.query<{ api_key_name: string | null }>({
    name: 'handover_record',
    text: `
      with photo_input(id, content_type, data, thumbnail, width, height) as (
        values ($4::uuid, $5::varchar, $6::bytea, $7::bytea, $8::int, $9::int),
               ($10::uuid, $11::varchar, $12::bytea, $13::bytea, $14::int, $15::int)
      ),
      stored as (
        insert into photos (id, organization_id, content_type, data, thumbnail, width, height, created_by)
        select id, $1::uuid, content_type, data, thumbnail, width, height, $3::uuid from photo_input where id is not null
      )
      insert into handovers (id, organization_id, recipient_id, collector_name, identified_by, proxy_reason,
                             signature_photo_id, photo_id, handed_over_by, api_key_id, api_key_name)
      select $2::uuid, $1::uuid, $16::uuid, $17, $18, $19, $4::uuid, $10::uuid, $3::uuid, k.id, k.name
      from (select 1) one
      left join api_keys k on k.organization_id = $1::uuid and k.id = $20::uuid
      returning api_key_name`,
    values: [
      v.organizationId,
      ids.id,
      v.handedOverBy,
      ids.signaturePhotoId,
      ...photo(v.signature),
      ids.photoId,
      ...photo(v.photo),
      v.recipientId,
      v.collectorName,
      v.identifiedBy,
      v.proxyReason,
      v.apiKeyId,
    ],
  });
  return { ...ids, apiKeyName: rows[0]?.api_key_name ?? null };
}

export const handoversRepository = {
  /** A hand-over of the organization with the staff member who made it and the items it took. */
  async find(db: DbOrTx, organizationId: string, id: string) {
    const [row] = await db
      .select({
        handover: handovers,
        staff: { id: users.id, firstName: users.firstName, lastName: users.lastName },
      })
      .from(handovers)
      .leftJoin(users, eq(users.id, handovers.handedOverBy))
      .where(and(eq(handovers.organizationId, organizationId), eq(handovers.id, id)));
    if (!row) return undefined;
    const items = await db
      .select({ id: mailItems.id })
      .from(mailItems)
      .where(and(eq(mailItems.organizationId, organizationId), eq(mailItems.handoverId, id)))
      .orderBy(asc(mailItems.arrivedAt), asc(mailItems.id));
    return { ...row.handover, staff: row.staff?.id ? row.staff : null, itemIds: items.map((i) => i.id) };
  },
};

/**
 * The names that may collect the items of the recipient aliased `r` besides their own, as one SQL
 * array: the proxies they named and the other active members of their SCIM household groups
 * (decision 060). Read by the hand-over's check and the pickup lookup's reply, so the desk offers
 * exactly whom the hand-over accepts. Index reads: recipient_proxies by recipient,
 * scim_group_members by (organization, recipient) and by its primary key.
 */
export const mayCollectNamesSql = (r: string) => `array(
    select p.name from recipient_proxies p where p.organization_id = ${r}.organization_id and p.recipient_id = ${r}.id
    union
    select o.first_name || ' ' || o.last_name
    from scim_group_members m
    join scim_groups g on g.organization_id = m.organization_id and g.id = m.group_id and g.kind = 'household'
    join scim_group_members om on om.organization_id = m.organization_id and om.group_id = m.group_id
                               and om.recipient_id <> m.recipient_id
    join recipients o on o.organization_id = om.organization_id and o.id = om.recipient_id and o.is_active
    where m.organization_id = ${r}.organization_id and m.recipient_id = ${r}.id
    order by 1)`;

/**
 * Who may collect a recipient's items: the recipient's own name, the proxies they named and the
 * active members of their SCIM household groups (decision 060); with
 * the recipient's current pickup code and whether they are active, which a hand-over by code checks.
 */
export async function collectorsOf(
  db: Queryable,
  organizationId: string,
  recipientId: string,
): Promise<
  { firstName: string; lastName: string; proxies: string[]; pickupCode: string; isActive: boolean } | undefined
> {
  const { rows } = await db.query<{
    first_name: string;
    last_name: string;
    proxies: string[];
    pickup_code: string;
    is_active: boolean;
  }>({
    name: 'handover_collectors_and_code',
    text: `select r.first_name, r.last_name, r.pickup_code, r.is_active,
                  ${mayCollectNamesSql('r')} as proxies
           from recipients r where r.organization_id = $1 and r.id = $2`,
    values: [organizationId, recipientId],
  });
  const row = rows[0];
  return (
    row && {
      firstName: row.first_name,
      lastName: row.last_name,
      proxies: row.proxies,
      pickupCode: row.pickup_code,
      isActive: row.is_active,
    }
  );
}
