// Operator commands: `npm run admin -- grant-super-admin EMAIL`.
import { grantSuperAdmin } from '../src/server/modules/admin/super-admin';
import { withDatabase } from './with-database';

const [command, arg] = process.argv.slice(2);

const usage = 'Usage: npm run admin -- grant-super-admin EMAIL';

if (command !== 'grant-super-admin' || !arg) {
  console.error(usage);
  process.exit(2);
}

const outcome = await withDatabase((db) => grantSuperAdmin(db, arg));
const messages = {
  granted: `${arg} is now a super admin.`,
  already: `${arg} was already a super admin.`,
  no_such_user: `No account with the email ${arg}. Register it first, then run this again.`,
};
console.log(messages[outcome]);
process.exit(outcome === 'no_such_user' ? 1 : 0);
