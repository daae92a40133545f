// Operator commands: `npm run admin -- grant-super-admin EMAIL`, `revoke-super-admin EMAIL` and
// `reset-two-factor EMAIL` (someone who lost both the phone and the recovery codes).
import { grantSuperAdmin, revokeSuperAdmin } from '../src/server/modules/super-admin/shell';
import { resetTwoFactor } from '../src/server/modules/super-admin/two-factor-reset';
import { withDatabase } from './with-database';

const [command, email] = process.argv.slice(2);

const usage = 'Usage: npm run admin -- grant-super-admin EMAIL | revoke-super-admin EMAIL | reset-two-factor EMAIL';
const commands = {
  'grant-super-admin': grantSuperAdmin,
  'revoke-super-admin': revokeSuperAdmin,
  'reset-two-factor': resetTwoFactor,
} as const;

if (!email || !(command! in commands)) {
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
  reset: `Two-factor sign-in is off for ${email} and every session of it has ended; it signs in with the password alone.`,
  not_enabled: `${email} does not have two-factor sign-in on.`,
};
const run = commands[command as keyof typeof commands];
const outcome = await withDatabase((db) => run(db, email));
console.log(messages[outcome]);
process.exit(outcome === 'no_such_user' || outcome === 'last_super_admin' ? 1 : 0);
