import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { recipients } from '../../db/schema';

/** Whose code it is, with what the hand-over shows of them and who may collect for them. */
export type CodeHolder = Pick<
  typeof recipients.$inferSelect,
  'id' | 'firstName' | 'lastName' | 'email' | 'unit' | 'department' | 'isActive'
> & { proxies: string[] };

const holderColumns = {
  id: recipients.id,
  firstName: recipients.firstName,
  lastName: recipients.lastName,
  email: recipients.email,
  unit: recipients.unit,
  department: recipients.department,
  isActive: recipients.isActive,
  // The outer columns spelled out with their table: in a one-table select Drizzle renders them
  // bare, and bare they would be the proxy's own.
  proxies: sql<string[]>`array(select p.name from recipient_proxies p
    where p.organization_id = "recipients"."organization_id" and p.recipient_id = "recipients"."id" order by p.name)`,
};

/** Pickup codes live on the recipient's row (PostgreSQL draws them: migration 0022, decision 031). */
export const pickupCodesRepository = {
  /** The recipient holding `code` in the organization: one read of recipients_pickup_code_org_idx. */
  async findHolder(db: DbOrTx, organizationId: string, code: string): Promise<CodeHolder | undefined> {
    const [row] = await db
      .select(holderColumns)
      .from(recipients)
      .where(and(eq(recipients.organizationId, organizationId), eq(recipients.pickupCode, code)));
    return row;
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
