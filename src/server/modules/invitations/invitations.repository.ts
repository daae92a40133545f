import { and, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Role } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { organizations, userInvitations, users } from '../../db/schema';

export type InvitationRow = typeof userInvitations.$inferSelect;

const listColumns = {
  id: userInvitations.id,
  email: userInvitations.email,
  role: userInvitations.role,
  expiresAt: userInvitations.expiresAt,
  createdAt: userInvitations.createdAt,
  invitedById: userInvitations.invitedBy,
  inviterFirstName: users.firstName,
  inviterLastName: users.lastName,
  inviterEmail: users.email,
};
export type InvitationListRow = {
  id: string;
  email: string;
  role: Role;
  expiresAt: Date;
  createdAt: Date;
  invitedById: string | null;
  inviterFirstName: string | null;
  inviterLastName: string | null;
  inviterEmail: string | null;
};

/** Open invitations: not used yet. Revoked ones are deleted. */
const open = (organizationId: string) =>
  and(eq(userInvitations.organizationId, organizationId), isNull(userInvitations.usedAt));

/**
 * user_invitations. Every call but the token lookups takes the organization id; a token names its
 * organization itself (the invitee is not a member yet), so those lookups are by token alone.
 */
export const invitationsRepository = {
  /** Open invitations with their inviter, newest first. */
  async listOpen(db: DbOrTx, organizationId: string): Promise<InvitationListRow[]> {
    return db
      .select(listColumns)
      .from(userInvitations)
      .leftJoin(users, eq(users.id, userInvitations.invitedBy))
      .where(open(organizationId))
      .orderBy(desc(userInvitations.createdAt), desc(userInvitations.id));
  },

  async findOpenWithInviter(db: DbOrTx, organizationId: string, id: string): Promise<InvitationListRow | undefined> {
    const [row] = await db
      .select(listColumns)
      .from(userInvitations)
      .leftJoin(users, eq(users.id, userInvitations.invitedBy))
      .where(and(open(organizationId), eq(userInvitations.id, id)));
    return row;
  },

  /** An open invitation, its row locked FOR UPDATE (inside a transaction). */
  async findOpenForUpdate(db: DbOrTx, organizationId: string, id: string): Promise<InvitationRow | undefined> {
    const [row] = await db
      .select()
      .from(userInvitations)
      .where(and(open(organizationId), eq(userInvitations.id, id)))
      .for('update');
    return row;
  },

  /** Serialises invitation writes for one email of one organization until the transaction ends. */
  async lockEmail(db: DbOrTx, organizationId: string, email: string) {
    await db.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`invitation:${organizationId}:${email}`}, 0))`,
    );
  },

  /** The open invitations for an email (at most one pending and maybe expired ones). */
  async findOpenByEmail(db: DbOrTx, organizationId: string, email: string): Promise<InvitationRow[]> {
    return db
      .select()
      .from(userInvitations)
      .where(and(open(organizationId), eq(userInvitations.email, email)));
  },

  /** Expired, unused invitations for an email: a new invitation replaces them. */
  async deleteExpiredForEmail(db: DbOrTx, organizationId: string, email: string, now: Date) {
    await db
      .delete(userInvitations)
      .where(and(open(organizationId), eq(userInvitations.email, email), lte(userInvitations.expiresAt, now)));
  },

  async insert(
    db: DbOrTx,
    values: { organizationId: string; email: string; role: Role; invitedBy: string; token: string; expiresAt: Date },
  ): Promise<InvitationRow> {
    const [row] = await db.insert(userInvitations).values(values).returning();
    return row!;
  },

  /** A new token and expiry for an open invitation (resend). */
  async renew(db: DbOrTx, organizationId: string, id: string, token: string, expiresAt: Date) {
    const [row] = await db
      .update(userInvitations)
      .set({ token, expiresAt })
      .where(and(open(organizationId), eq(userInvitations.id, id)))
      .returning();
    return row;
  },

  /**
   * The token of the invitation's email, set by the notification worker as it sends (decision
   * 054); false when the invitation was revoked, used or has expired meanwhile.
   */
  async setToken(db: DbOrTx, organizationId: string, id: string, token: string, now: Date): Promise<boolean> {
    const rows = await db
      .update(userInvitations)
      .set({ token })
      .where(and(open(organizationId), eq(userInvitations.id, id), gt(userInvitations.expiresAt, now)))
      .returning({ id: userInvitations.id });
    return rows.length > 0;
  },

  /** Revoke: the row goes, so its token verifies as unknown; the audit log keeps the record. */
  async delete(db: DbOrTx, organizationId: string, id: string): Promise<InvitationRow | undefined> {
    const [row] = await db
      .delete(userInvitations)
      .where(and(open(organizationId), eq(userInvitations.id, id)))
      .returning();
    return row;
  },

  /**
   * The invitation a token names, if it is unused and unexpired, with its organization's name.
   * `lock` takes the invitation row FOR UPDATE so a token cannot be used twice concurrently.
   */
  async findUsableByToken(db: DbOrTx, tokenHash: string, now: Date, { lock = false }: { lock?: boolean } = {}) {
    const query = db
      .select({ invitation: userInvitations, organizationName: organizations.name })
      .from(userInvitations)
      .innerJoin(organizations, eq(organizations.id, userInvitations.organizationId))
      .where(and(eq(userInvitations.token, tokenHash), isNull(userInvitations.usedAt)));
    const [row] = lock ? await query.for('update', { of: userInvitations }) : await query;
    if (!row || row.invitation.expiresAt <= now) return undefined;
    return row;
  },

  async markUsed(db: DbOrTx, organizationId: string, id: string, now: Date) {
    await db
      .update(userInvitations)
      .set({ usedAt: now })
      .where(and(eq(userInvitations.organizationId, organizationId), eq(userInvitations.id, id)));
  },

  async organizationName(db: DbOrTx, organizationId: string): Promise<string | undefined> {
    const [row] = await db
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    return row?.name;
  },

  /** The names an invitation email calls its sender by (read here: invitations sit below auth). */
  async inviterNames(db: DbOrTx, userId: string) {
    const [row] = await db
      .select({ firstName: users.firstName, lastName: users.lastName, username: users.username })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  },
};
