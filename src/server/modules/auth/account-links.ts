import type { DbOrTx } from '../../db/client';
import { addMs } from '../../lib/time';
import { hashToken, newToken } from '../../lib/tokens';
import { emailVerificationRepository } from './email-verification.repository';
import { passwordResetRepository } from './password-reset.repository';
import { usersRepository } from './users.repository';

const RESET_TOKEN_TTL_MS = 3600_000;
const VERIFY_TOKEN_TTL_MS = 48 * 3600_000;

/**
 * The tokens of the links auth's emails carry, minted by the notification worker as it sends
 * (decision 054): the token exists only in the message, the database keeps its hash. Each attempt
 * mints its own; one never delivered is a hash nobody holds the token of.
 */

/** A verification link's token; undefined once the address is proven (a queued link is then pointless). */
export async function mintVerificationToken(db: DbOrTx, userId: string): Promise<string | undefined> {
  const user = await usersRepository.findById(db, userId);
  if (!user || user.emailVerifiedAt) return undefined;
  const token = newToken();
  await emailVerificationRepository.insert(db, userId, hashToken(token), addMs(new Date(), VERIFY_TOKEN_TTL_MS));
  return token;
}

/**
 * A password link's token: a reset (one hour) or a listed platform administrator's claim (as
 * long as a verification link: its owner did not ask for it just now); undefined for a gone account.
 */
export async function mintPasswordToken(
  db: DbOrTx,
  userId: string,
  purpose: 'reset' | 'super_admin_claim',
): Promise<string | undefined> {
  const user = await usersRepository.findById(db, userId);
  if (!user) return undefined;
  const token = newToken();
  const ttl = purpose === 'super_admin_claim' ? VERIFY_TOKEN_TTL_MS : RESET_TOKEN_TTL_MS;
  await passwordResetRepository.insert(db, userId, hashToken(token), addMs(new Date(), ttl));
  return token;
}
