import type { DbOrTx } from '../../db/client';
import { platformLogRepository } from '../audit/platform-log.repository';
import { usersRepository } from './users.repository';

/**
 * Who changed the flag: a super admin in the console (the actor), or, with no actor, the shell or
 * the owner of a SUPER_ADMIN_EMAILS inbox who set the password through the emailed link
 * (decision 029).
 */
export type SuperAdminFlagChangedBy = { actor: { id: string; email: string } } | { via: 'shell' | 'inbox' };

/**
 * The one writer of the super admin flag: sets it (locking the user's row) and, when it changed,
 * writes its platform log row, inside the caller's transaction. (Sessions are read with the user
 * on every request, decision 037: the next request on any instance carries the new flag.) Answers the flag before and the user's email;
 * undefined for an unknown user.
 */
export async function setSuperAdminFlag(
  tx: DbOrTx,
  userId: string,
  isSuperAdmin: boolean,
  by: SuperAdminFlagChangedBy,
): Promise<{ isSuperAdmin: boolean; email: string } | undefined> {
  const before = await usersRepository.setSuperAdmin(tx, userId, isSuperAdmin);
  if (!before || before.isSuperAdmin === isSuperAdmin) return before;
  await platformLogRepository.record(tx, {
    kind: 'super_admin',
    action: isSuperAdmin ? 'user.super_admin_granted' : 'user.super_admin_revoked',
    ...('actor' in by ? { actor: by.actor } : {}),
    targetType: 'user',
    targetId: userId,
    targetLabel: before.email,
    before: { isSuperAdmin: before.isSuperAdmin },
    after: { isSuperAdmin },
    ...('via' in by ? { details: { via: by.via } } : {}),
  });
  return before;
}
