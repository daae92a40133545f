import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { queryShape } from '../../db/prepared';
import { mayCollectNamesSql } from '../mail-items/handovers.repository';
import { waitingForRecipientJson } from '../mail-items/mail-items.repository';
import { recipients } from '../../db/schema';

/** What a pickup lookup finds the recipient by: the code the collector shows, or the row the desk chose. */
export type PickupLookupBy = { code: string } | { recipientId: string };

/** Pickup codes live on the recipient's row (PostgreSQL draws them: migration 0022, decision 031). */
export const pickupCodesRepository = {
  /**
   * The lookup's whole reply (PickupLookup) as JSON, built by PostgreSQL in one prepared statement:
   * the recipient holding `code` (one read of recipients_pickup_code_org_idx) or having the id
   * `recipientId` (the primary key), with who may collect for them (`mayCollectNamesSql`) and at most `limit` of their waiting items,
   * and whether they are active. Undefined when nobody in the organization holds the code or id.
   */
  async lookupJson(
    db: DbOrTx,
    organizationId: string,
    by: PickupLookupBy,
    limit: number,
  ): Promise<{ body: string; active: boolean } | undefined> {
    // The two keys are two statement texts (two shapes), each a plain index read.
    const [column, value] = 'code' in by ? (['pickup_code', by.code] as const) : (['id', by.recipientId] as const);
    const rows = await queryShape<{ body: string | null; active: boolean }, { organizationId: string; value: string }>(
      db,
      `pickups.lookup ${column} ${limit}`,
      { organizationId, value },
      (v) => sql`
        with holder as (
          select r.id, r.organization_id, r.first_name, r.last_name, r.email, r.unit, r.department, r.is_active
          from recipients r where r.${sql.raw(column)} = ${v.value} and r.organization_id = ${v.organizationId}
        )
        select json_build_object(
          'recipient', json_build_object(
            'id', h.id, 'firstName', h.first_name, 'lastName', h.last_name, 'email', h.email, 'unit', h.unit,
            'department', h.department, 'isActive', h.is_active,
            'proxies', ${sql.raw(mayCollectNamesSql('h'))}),
          'items', ${waitingForRecipientJson(db, v.organizationId, sql`h.id`, limit)}::json
        )::text as body, h.is_active as active
        from holder h`,
    );
    const row = rows[0];
    return row?.body ? { body: row.body, active: row.active } : undefined;
  },

  async codeOf(db: DbOrTx, organizationId: string, recipientId: string): Promise<string | undefined> {
    const [row] = await db
      .select({ code: recipients.pickupCode })
      .from(recipients)
      .where(and(eq(recipients.organizationId, organizationId), eq(recipients.id, recipientId)));
    return row?.code;
  },

  /**
   * A new code for the recipient, drawn by PostgreSQL (the trigger draws again while another
   * recipient of the organization holds it); the old one stops working at once.
   */
  async regenerate(db: DbOrTx, organizationId: string, recipientId: string): Promise<string | undefined> {
    const [row] = await db
      .update(recipients)
      .set({ pickupCode: sql`pickup_code_draw()`, updatedAt: new Date() })
      .where(and(eq(recipients.organizationId, organizationId), eq(recipients.id, recipientId)))
      .returning({ code: recipients.pickupCode });
    return row?.code;
  },
};
