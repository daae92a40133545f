import type { Db } from '../../db/client';
import { sessionsRepository } from '../auth/sessions.repository';
import { twoFactorRepository } from '../auth/two-factor.repository';
import { usersRepository } from '../auth/users.repository';
import { platformLogRepository } from '../audit/platform-log.repository';

/**
 * The shell's way back in for someone who lost both the phone and the recovery codes
 * (`npm run admin -- reset-two-factor EMAIL`, run by an operator who has checked who is asking):
 * two-factor off, recovery codes gone, every session ended (running instances drop the cached
 * ones when it commits). Written to the platform log.
 */
export async function resetTwoFactor(db: Db, email: string): Promise<'reset' | 'not_enabled' | 'no_such_user'> {
  const user = await usersRepository.findByEmail(db, email.trim());
  if (!user) return 'no_such_user';
  if (!user.twoFactorEnabledAt) return 'not_enabled';
  await db.transaction(async (tx) => {
    await twoFactorRepository.clear(tx, user.id);
    await twoFactorRepository.endChallengesFor(tx, user.id);
    await sessionsRepository.deleteForUser(tx, user.id);
    await platformLogRepository.record(tx, {
      kind: 'sign_in',
      action: 'user.two_factor_reset',
      targetType: 'user',
      targetId: user.id,
      targetLabel: user.email,
      before: { twoFactor: true },
      after: { twoFactor: false },
      details: { via: 'shell' },
    });
  });
  return 'reset';
}
