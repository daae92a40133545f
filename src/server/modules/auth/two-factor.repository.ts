import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { twoFactorChallenges, twoFactorRecoveryCodes, users } from '../../db/schema';

export const twoFactorRepository = {
  /**
   * Records that the code of this 30-second step was used, only if no code of this step or a
   * later one was: two requests with the same code cannot both pass. True when this one did.
   */
  async claimStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ twoFactorLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
      .returning({ id: users.id });
    return rows.length === 1;
  },

  async replaceRecoveryCodes(db: DbOrTx, userId: string, codeHashes: readonly string[]) {
    await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    if (codeHashes.length > 0) {
      await db.insert(twoFactorRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
    }
  },

  /** Uses a recovery code once, in one statement (two requests cannot both spend it). */
  async consumeRecoveryCode(db: DbOrTx, userId: string, codeHash: string): Promise<boolean> {
    const rows = await db
      .update(twoFactorRecoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(twoFactorRecoveryCodes.userId, userId),
          eq(twoFactorRecoveryCodes.codeHash, codeHash),
          isNull(twoFactorRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: twoFactorRecoveryCodes.id });
    return rows.length === 1;
  },

  async recoveryCodesLeft(db: DbOrTx, userId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(twoFactorRecoveryCodes)
      .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
    return row?.n ?? 0;
  },

  async insertChallenge(db: DbOrTx, userId: string, tokenHash: string, expiresAt: Date) {
    await db.insert(twoFactorChallenges).values({ userId, token: tokenHash, expiresAt });
  },

  /** The user of a live (unused, unexpired) challenge. */
  async findChallenge(db: DbOrTx, tokenHash: string): Promise<{ id: string; userId: string } | undefined> {
    const [row] = await db
      .select({ id: twoFactorChallenges.id, userId: twoFactorChallenges.userId })
      .from(twoFactorChallenges)
      .where(
        and(
          eq(twoFactorChallenges.token, tokenHash),
          isNull(twoFactorChallenges.usedAt),
          gt(twoFactorChallenges.expiresAt, new Date()),
        ),
      );
    return row;
  },

  /** Marks a challenge used; false when another request used it first. */
  async consumeChallenge(db: DbOrTx, id: string): Promise<boolean> {
    const rows = await db
      .update(twoFactorChallenges)
      .set({ usedAt: new Date() })
      .where(and(eq(twoFactorChallenges.id, id), isNull(twoFactorChallenges.usedAt)))
      .returning({ id: twoFactorChallenges.id });
    return rows.length === 1;
  },

  /**
   * Ends every open challenge of the user: a password reset or change means the password that
   * opened them may be someone else's, and a challenge would still sign in for five minutes.
   */
  async endChallengesFor(db: DbOrTx, userId: string) {
    await db
      .update(twoFactorChallenges)
      .set({ usedAt: new Date() })
      .where(and(eq(twoFactorChallenges.userId, userId), isNull(twoFactorChallenges.usedAt)));
  },

  /** Two-factor off, the set-up in progress dropped and the recovery codes gone, in the caller's transaction. */
  async clear(db: DbOrTx, userId: string) {
    await db
      .update(users)
      .set({ twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null, updatedAt: new Date() })
      .where(eq(users.id, userId));
    await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  },

  async deleteExpiredChallenges(db: DbOrTx) {
    await db.delete(twoFactorChallenges).where(lt(twoFactorChallenges.expiresAt, sql`now() - interval '1 day'`));
  },
};
