import type { Db } from '../../db/client';
import { usersRepository } from '../auth/users.repository';

/** The shell's way to make the first super admin (`npm run admin -- grant-super-admin EMAIL`). */
export async function grantSuperAdmin(db: Db, email: string): Promise<'granted' | 'already' | 'no_such_user'> {
  const user = await usersRepository.findByEmail(db, email.trim());
  if (!user) return 'no_such_user';
  if (user.isSuperAdmin) return 'already';
  await usersRepository.update(db, user.id, { isSuperAdmin: true });
  return 'granted';
}
