import type { PlatformLogEntry } from '@contract';
// relative, so the unit test (no path aliases in vitest.config) can load it
import { humanize } from '../../lib/format';

/**
 * How System Logs words an entry: who did what to whom, and the values before and after. Kept
 * apart from the component so it can be tested without a browser.
 */

const planNames: Record<string, string> = {
  trial: 'Trial',
  starter: 'Starter',
  professional: 'Professional',
  enterprise: 'Enterprise',
};

const fieldNames: Record<string, string> = {
  planType: 'plan',
  subscriptionStatus: 'status',
  maxUsers: 'seats',
  maxPackagesPerMonth: 'packages a month',
  isSuperAdmin: 'super admin',
};

function valueText(field: string, value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (field === 'planType') return planNames[String(value)] ?? String(value);
  if (field === 'subscriptionStatus') return humanize(String(value));
  if (field === 'maxPackagesPerMonth' || field === 'maxUsers') return value === -1 ? 'unlimited' : String(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** "plan Trial → Professional, seats 5 → 10" for the fields that changed. */
export function changeText(entry: Pick<PlatformLogEntry, 'before' | 'after'>, fields?: string[]): string {
  const after = entry.after ?? {};
  return (fields ?? Object.keys(after))
    .map((field) => {
      const name = fieldNames[field] ?? field;
      return `${name} ${valueText(field, entry.before?.[field])} → ${valueText(field, after[field])}`;
    })
    .join(', ');
}

/** The fields an operator picks; the rest (seats, packages) follow from a plan. */
const chosenFields = ['planType', 'subscriptionStatus'];

/**
 * "changed the plan of Acme from Trial to Professional (packages a month 500 → unlimited)": the
 * chosen values in words, what followed from them in brackets.
 */
function organizationChange(target: string, entry: Pick<PlatformLogEntry, 'before' | 'after'>): string {
  const changed = Object.keys(entry.after ?? {});
  const chosen = chosenFields.filter((f) => changed.includes(f));
  const followed = changed.filter((f) => !chosenFields.includes(f));
  if (chosen.length === 0) return `changed ${target}: ${changeText(entry)}`;
  const clauses = chosen.map(
    (f, i) =>
      `${i === 0 ? 'the ' : 'its '}${fieldNames[f]}${i === 0 ? ` of ${target}` : ''} from ${valueText(
        f,
        entry.before?.[f],
      )} to ${valueText(f, entry.after?.[f])}`,
  );
  const rest = followed.length ? ` (${changeText(entry, followed)})` : '';
  return `changed ${clauses.join(' and ')}${rest}`;
}

/** Who acted: the super admin's email, the shell, or the system for sign-in and webhook entries. */
export function logActor(entry: PlatformLogEntry): string {
  if (entry.actor) return entry.actor.email;
  if (entry.details?.via === 'shell') return 'Shell command';
  if (entry.details?.via === 'inbox') return 'Owner of the listed address';
  if (entry.kind === 'scim') return 'Directory (SCIM) guard';
  return entry.kind === 'webhook' ? 'Payment provider' : 'Sign-in guard';
}

/** What happened, as a sentence without the actor. */
export function logSummary(entry: PlatformLogEntry): string {
  const target = entry.targetLabel ?? 'unknown';
  const details = entry.details ?? {};
  switch (entry.action) {
    case 'organization.updated':
      return organizationChange(target, entry);
    case 'user.super_admin_granted':
      return `granted super admin access to ${target}`;
    case 'user.super_admin_revoked':
      return `revoked super admin access from ${target}`;
    case 'sign_in.repeated_failures': {
      const window = typeof details.windowMinutes === 'number' ? ` within ${details.windowMinutes} minutes` : '';
      return details.scope === 'address'
        ? `refused sign-ins from ${target} after ${String(details.attempts)} failed attempts${window}`
        : `refused sign-ins to "${target}" after ${String(details.attempts)} failed attempts${window}`;
    }
    case 'sign_in.repeated_two_factor_failures': {
      const window = typeof details.windowMinutes === 'number' ? ` within ${details.windowMinutes} minutes` : '';
      return `refused two-factor codes for ${target} after ${String(details.attempts)} wrong codes${window}; the owner was emailed`;
    }
    case 'user.two_factor_reset':
      return `turned two-factor sign-in off for ${target} and ended its sessions`;
    case 'webhook.stripe_failed':
      return `Stripe webhook refused: ${String(details.message ?? details.code ?? 'unknown reason')}${
        details.eventType ? ` (${String(details.eventType)})` : ''
      }`;
    case 'organization.domain_verified':
      return `verified the email domain ${String(entry.after?.domain ?? 'unknown')} of ${target}`;
    case 'scim.token_refused':
      return `refused a SCIM request from ${target}: ${String(details.reason ?? 'bad')} bearer token (${String(details.method ?? '')} ${String(details.path ?? '')})`;
  }
}
