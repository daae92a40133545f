import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { emailVerificationTokens } from '../../db/schema';

export const emailVerificationRepository = {
  async insert(db: DbOrTx, userId: string, tokenHash: string, expiresAt: Date) {
    await db.insert(emailVerificationTokens).values({ userId, token: tokenHash, expiresAt });
  },

  /** Marks the token used and answers its user, in one statement; unknown, used and expired tokens answer undefined. */
  async consume(db: DbOrTx, tokenHash: string): Promise<{ userId: string } | undefined> {
    const [row] = await db
      .update(emailVerificationTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(emailVerificationTokens.token, tokenHash),
          isNull(emailVerificationTokens.usedAt),
          gt(emailVerificationTokens.expiresAt, new Date()),
        ),
      )
      .returning({ userId: emailVerificationTokens.userId });
    return row;
  },

  /** Once the address is proven, the other links sent for it are worthless. */
  async consumeAllFor(db: DbOrTx, userId: string) {
    await db
      .update(emailVerificationTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(emailVerificationTokens.userId, userId), isNull(emailVerificationTokens.usedAt)));
  },
};
