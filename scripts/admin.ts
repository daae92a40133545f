// Operator commands: `npm run admin -- grant-super-admin EMAIL` and `revoke-super-admin EMAIL`.
import { grantSuperAdmin, revokeSuperAdmin } from '../src/server/modules/admin/super-admin';
import { withDatabase } from './with-database';

const [command, email] = process.argv.slice(2);

const usage = 'Usage: npm run admin -- grant-super-admin EMAIL | revoke-super-admin EMAIL';

if (!email || (command !== 'grant-super-admin' && command !== 'revoke-super-admin')) {
  console.error(usage);
  process.exit(2);
}

const messages: Record<string, string> = {
  granted: `${email} is now a super admin.`,
  already: `${email} was already a super admin.`,
  revoked: `${email} is no longer a super admin.`,
  not_super_admin: `${email} was not a super admin.`,
  last_super_admin: `${email} is the only super admin; grant the flag to someone else first.`,
  no_such_user: `No account with the email ${email}. Register it first, then run this again.`,
};
const outcome = await withDatabase((db) =>
  command === 'grant-super-admin' ? grantSuperAdmin(db, email) : revokeSuperAdmin(db, email),
);
console.log(messages[outcome]);
process.exit(outcome === 'no_such_user' || outcome === 'last_super_admin' ? 1 : 0);
