import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { passwordResetTokens } from '../../db/schema';

export const passwordResetRepository = {
  async insert(db: DbOrTx, userId: string, tokenHash: string, expiresAt: Date) {
    await db.insert(passwordResetTokens).values({ userId, token: tokenHash, expiresAt });
  },

  /**
   * Marks the token used and answers its user, in one statement, so two concurrent resets with
   * the same link cannot both succeed. Unknown, used and expired tokens answer undefined.
   */
  async consume(db: DbOrTx, tokenHash: string): Promise<{ userId: string } | undefined> {
    const [row] = await db
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResetTokens.token, tokenHash),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, new Date()),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    return row;
  },

  /** Ends every reset link of the user still open: a new password makes the old links worthless. */
  async consumeAllFor(db: DbOrTx, userId: string) {
    await db
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
  },
};
