import { and, count, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { usersRepository } from '../auth/users.repository';
import { setSuperAdminFlag } from '../auth/super-admin-flag';

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

async function setFlag(db: Db, user: { id: string }, isSuperAdmin: boolean) {
  // The command runs in a process of its own: the running instances hear of it through the feed.
  await db.transaction((tx) => setSuperAdminFlag(tx, user.id, isSuperAdmin, { via: 'shell' }));
}
