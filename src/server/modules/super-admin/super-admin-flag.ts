import type { CacheChange } from '../../caches';
import type { DbOrTx } from '../../db/client';
import { platformLogRepository } from './platform-log.repository';
import { superAdminRepository } from './super-admin.repository';

/**
 * Who changed the flag: a super admin in the console (the actor), or, with no actor, the shell or
 * the owner of a SUPER_ADMIN_EMAILS inbox who set the password through the emailed link
 * (decision 029).
 */
export type SuperAdminFlagChangedBy = { actor: { id: string; email: string } } | { via: 'shell' | 'inbox' };

/**
 * The one writer of the super admin flag: sets it (locking the user's row) and, when it changed,
 * tells the caches (the user's cached sessions carry the old flag) and writes its platform log
 * row, all inside the caller's transaction. Answers the flag before and the user's email;
 * undefined for an unknown user.
 */
export async function setSuperAdminFlag(
  tx: DbOrTx,
  userId: string,
  isSuperAdmin: boolean,
  by: SuperAdminFlagChangedBy,
  forget: (change: CacheChange) => unknown,
): Promise<{ isSuperAdmin: boolean; email: string } | undefined> {
  const before = await superAdminRepository.setSuperAdmin(tx, userId, isSuperAdmin);
  if (!before || before.isSuperAdmin === isSuperAdmin) return before;
  await forget({ kind: 'user', userId });
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
