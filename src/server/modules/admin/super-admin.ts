import { and, count, eq, ne } from 'drizzle-orm';
import { tellInstances } from '../../caches';
import type { Db, DbOrTx } from '../../db/client';
import { users } from '../../db/schema';
import { usersRepository } from '../auth/users.repository';
import { platformLogRepository } from '../super-admin/platform-log.repository';

/**
 * The shell's way to make the first super admin and to take the flag away
 * (`npm run admin -- grant-super-admin EMAIL`, `revoke-super-admin EMAIL`). Both are written to
 * the platform log with no actor and `via: shell`.
 */

export async function grantSuperAdmin(db: Db, email: string): Promise<'granted' | 'already' | 'no_such_user'> {
  const user = await usersRepository.findByEmail(db, email.trim());
  if (!user) return 'no_such_user';
  if (user.isSuperAdmin) return 'already';
  await setFlag(db, user, true);
  return 'granted';
}

/** Refuses to take the flag from the last super admin: the platform always keeps one. */
export async function revokeSuperAdmin(
  db: Db,
  email: string,
): Promise<'revoked' | 'not_super_admin' | 'last_super_admin' | 'no_such_user'> {
  const user = await usersRepository.findByEmail(db, email.trim());
  if (!user) return 'no_such_user';
  if (!user.isSuperAdmin) return 'not_super_admin';
  const [others] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.isSuperAdmin, true), ne(users.id, user.id)));
  if (!others?.n) return 'last_super_admin';
  await setFlag(db, user, false);
  return 'revoked';
}

async function setFlag(db: Db, user: { id: string; email: string }, isSuperAdmin: boolean) {
  await db.transaction((tx) => changeSuperAdminFlag(tx, user, isSuperAdmin, 'shell'));
}

/**
 * Sets the flag and writes its platform log row, inside the caller's transaction. `via` says who
 * proved the right to it: the shell, or the owner of a SUPER_ADMIN_EMAILS inbox who set the
 * password through the emailed link (decision 029).
 */
export async function changeSuperAdminFlag(
  tx: DbOrTx,
  user: { id: string; email: string },
  isSuperAdmin: boolean,
  via: 'shell' | 'inbox',
) {
  await usersRepository.update(tx, user.id, { isSuperAdmin });
  // Running instances' cached sessions carry the old flag.
  await tellInstances(tx, [{ kind: 'user', userId: user.id }]);
  await platformLogRepository.record(tx, {
    kind: 'super_admin',
    action: isSuperAdmin ? 'user.super_admin_granted' : 'user.super_admin_revoked',
    targetType: 'user',
    targetId: user.id,
    targetLabel: user.email,
    before: { isSuperAdmin: !isSuperAdmin },
    after: { isSuperAdmin },
    details: { via },
  });
}
