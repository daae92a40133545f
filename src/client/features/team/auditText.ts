import type { AuditEntry } from '@contract';
// relative, so the unit test (no path aliases in vitest.config) can load it
import { PLANS, formatCents } from '../../../contract/billing';
import { displayName } from '../../lib/format';

/** Field names as people read them in the activity log. */
const fieldNames: Record<string, string> = {
  name: 'name',
  address: 'address',
  contactName: 'contact name',
  contactEmail: 'contact email',
  contactPhone: 'contact phone',
  logoUrl: 'logo',
  timezone: 'timezone',
  emailDomain: 'email domain',
  packageTypes: 'package types',
  packageSizes: 'package sizes',
  courierCompanies: 'courier companies',
  customStatuses: 'statuses',
  allowEditAfterDelivery: 'edit after delivery',
  requirePhotoUpload: 'photo requirement',
  autoNotifyRecipients: 'auto-notify',
  sendReminders: 'reminders',
  reminderAfterDays: 'reminder days',
  labelMatchThreshold: 'label match threshold',
  longestHoldDays: 'longest hold',
  defaultLanguage: 'default language',
  language: 'language',
  pickupInstructions: 'pickup instructions',
  isActive: 'on/off',
  description: 'description',
  mailroom: 'mailroom',
  capacity: 'capacity',
  notes: 'notes',
  webhookUrl: 'webhook URL',
  webhookEvents: 'webhook events',
  webhookSecret: 'signing secret',
  smtpHost: 'SMTP host',
  smtpPort: 'SMTP port',
  username: 'username',
  password: 'password',
  fromAddress: 'from address',
  secure: 'TLS',
  accountSid: 'account SID',
  authToken: 'auth token',
  fromNumber: 'from number',
  baseUrl: 'base URL',
};

/** Integration types as people read them: "the SMS integration Texts". */
const integrationTypes: Record<string, string> = { email: 'email', sms: 'SMS', webhook: 'webhook', api: 'API' };

/** "contactEmail" -> "contact email" for a field the table above does not know. */
function fieldName(key: string): string {
  return fieldNames[key] ?? key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function changedFields(entry: AuditEntry): string {
  const keys = Object.keys(entry.after ?? entry.before ?? {});
  return keys.length > 0 ? `: ${keys.map(fieldName).join(', ')}` : '';
}

function roleOf(record: Record<string, unknown> | null): string | null {
  const role = record?.role;
  return typeof role === 'string' ? role : null;
}

/** A text field of the entry's after (or else before) values. */
function textOf(entry: AuditEntry, key: string): string | null {
  const value = entry.after?.[key] ?? entry.before?.[key];
  return typeof value === 'string' ? value : null;
}

/** "the email integration Front desk email", or "the integration X" when the type is not recorded. */
function integration(entry: AuditEntry, target: string): string {
  const type = textOf(entry, 'type');
  return `the ${type ? `${integrationTypes[type] ?? type} ` : ''}integration ${target}`;
}

/** "the API key Reception kiosk (pk_ab12cd34)". */
function apiKey(entry: AuditEntry, target: string): string {
  const prefix = textOf(entry, 'prefix');
  return `the API key ${target}${prefix ? ` (${prefix})` : ''}`;
}

/** An update that only switched something on or off reads as that; other updates list their fields. */
function updated(entry: AuditEntry, what: string): string {
  const keys = Object.keys(entry.after ?? {});
  if (keys.length === 1 && keys[0] === 'isActive' && typeof entry.after?.isActive === 'boolean') {
    return `switched ${entry.after.isActive ? 'on' : 'off'} ${what}`;
  }
  return `updated ${what}${changedFields(entry)}`;
}

/** "Professional"; the trial reads "Trial". */
function planLabel(value: unknown): string | null {
  if (value === 'trial') return 'Trial';
  return typeof value === 'string' && value in PLANS ? PLANS[value as keyof typeof PLANS].name : null;
}

const paidWith: Record<string, string> = {
  stripe: 'paid by card',
  paypal: 'paid with PayPal',
  demo: 'paid with the demo provider',
};

function seats(value: unknown): string | null {
  if (typeof value !== 'number') return null;
  return value < 0 ? 'unlimited seats' : `${value} ${value === 1 ? 'seat' : 'seats'}`;
}

/** "changed the plan from Trial to Professional, 5 seats, paid by card". */
function planChange(entry: AuditEntry): string {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const parts: string[] = [];
  const fromPlan = planLabel(before.planType);
  const toPlan = planLabel(after.planType);
  if (toPlan) {
    parts.push(fromPlan ? `changed the plan from ${fromPlan} to ${toPlan}` : `changed the plan to ${toPlan}`);
    const count = seats(after.maxUsers);
    if (count) parts.push(count);
  } else if (typeof after.maxUsers === 'number') {
    const from = seats(before.maxUsers);
    parts.push(from ? `changed the seats from ${from} to ${seats(after.maxUsers)}` : `set ${seats(after.maxUsers)}`);
  }
  if (typeof after.subscriptionStatus === 'string' && !(toPlan && after.subscriptionStatus === 'active')) {
    const from = typeof before.subscriptionStatus === 'string' ? ` from ${before.subscriptionStatus}` : '';
    parts.push(
      parts.length > 0
        ? `subscription ${after.subscriptionStatus}`
        : `changed the subscription${from} to ${after.subscriptionStatus}`,
    );
  }
  const provider = typeof after.provider === 'string' ? paidWith[after.provider] : undefined;
  if (provider) parts.push(provider);
  if (parts.length === 0) return 'changed the plan';
  return parts.join(', ');
}

/** "recorded a failed payment of $175". */
function paymentFailed(entry: AuditEntry): string {
  const amount = entry.after?.amount;
  const currency = typeof entry.after?.currency === 'string' ? entry.after.currency.toUpperCase() : 'USD';
  if (typeof amount !== 'number') return 'recorded a failed payment';
  return `recorded a failed payment of ${formatCents(amount)}${currency === 'USD' ? '' : ` ${currency}`}`;
}

/** Who did it: the actor's name; "Billing" for what the payment provider or the plan's expiry did; else "Someone". */
export function auditActor(entry: AuditEntry): string {
  if (entry.actor) return displayName(entry.actor);
  if (entry.action.startsWith('scim.')) return 'The directory (SCIM)';
  return entry.action.startsWith('billing.') ? 'Billing' : 'Someone';
}

/**
 * What happened, after the actor's name: "invited bob@x.com as member". `nameOf` may give a
 * member's current name for the recorded user id (the entry keeps their email).
 */
export function auditAction(entry: AuditEntry, nameOf?: (userId: string) => string | undefined): string {
  const known = entry.targetType === 'member' && entry.targetId ? nameOf?.(entry.targetId) : undefined;
  const target = known ?? entry.targetLabel ?? 'a user';
  const role = roleOf(entry.after);
  switch (entry.action) {
    case 'invitation.sent':
      return role ? `invited ${target} as ${role}` : `invited ${target}`;
    case 'invitation.resent':
      return `re-sent the invitation to ${target}`;
    case 'invitation.revoked':
      return `revoked the invitation to ${target}`;
    case 'invitation.accepted':
      return role ? `joined as ${role}` : 'joined the organization';
    case 'member.role_changed': {
      const from = roleOf(entry.before);
      return from && role ? `changed ${target}'s role from ${from} to ${role}` : `changed ${target}'s role`;
    }
    case 'member.removed':
      return `removed ${target} from the organization`;
    case 'organization.updated':
      return `updated Organization${changedFields(entry)}`;
    case 'settings.updated':
      return `updated Settings${changedFields(entry)}`;
    case 'integration.created':
      return `added ${integration(entry, target)}`;
    case 'integration.updated':
      return updated(entry, integration(entry, target));
    case 'integration.deleted':
      return `deleted ${integration(entry, target)}`;
    case 'integration.secret_rotated':
      return `replaced the signing secret of ${integration(entry, target)}`;
    case 'api_key.created':
      return `created ${apiKey(entry, target)}`;
    case 'api_key.revoked':
      return `revoked ${apiKey(entry, target)}`;
    case 'mailroom.created':
      return `added the mailroom ${target}`;
    case 'mailroom.updated':
      return updated(entry, `the mailroom ${target}`);
    case 'mailroom.deleted':
      return `deleted the mailroom ${target}`;
    case 'location.created': {
      const mailroom = textOf(entry, 'mailroom');
      return `added the storage location ${target}${mailroom ? ` to ${mailroom}` : ''}`;
    }
    case 'location.updated':
      return updated(entry, `the storage location ${target}`);
    case 'location.deleted':
      return `deleted the storage location ${target}`;
    case 'billing.plan_changed':
      return planChange(entry);
    case 'billing.payment_failed':
      return paymentFailed(entry);
    case 'billing.refused': {
      const reason = textOf(entry, 'reason');
      return reason ? `was refused a billing action: ${reason}` : 'was refused a billing action';
    }
    // The entries name the recipient by id only: no personal data in the log (decision 015).
    case 'recipient.personal_data_exported':
      return 'exported the personal data of a recipient';
    case 'recipient.erased':
      return 'erased the personal data of a recipient';
    case 'domain.claimed':
      return `added the email domain ${target}`;
    case 'domain.verified':
      return textOf(entry, 'verifiedBy') === 'super_admin'
        ? `verified the email domain ${target} (Pigeonhole support)`
        : `verified the email domain ${target} by its DNS record`;
    case 'domain.removed':
      return `removed the email domain ${target}`;
    case 'sso.connection_saved':
      return 'changed the single sign-on settings';
    case 'sso.connection_removed':
      return 'removed single sign-on';
    case 'sso.signed_in':
      return 'signed in through single sign-on';
    case 'member.joined_by_sso':
      return `joined through single sign-on as ${textOf(entry, 'role') ?? 'member'}`;
    case 'member.role_changed_by_sso':
      return "became an admin through the identity provider's mapping";
    case 'roster.source_created':
      return `added the roster source ${target}`;
    case 'roster.source_updated':
      return updated(entry, `the roster source ${target}`);
    case 'roster.source_deleted':
      return `removed the roster source ${target}`;
    case 'roster.run_started':
      return `ran the roster from ${target}`;
    case 'roster.run_approved':
      return `approved a roster run from ${target}`;
    case 'roster.run_rejected':
      return `rejected a roster run from ${target}`;
    case 'scim_token.created':
      return `created the SCIM token ${target}`;
    case 'scim_token.revoked':
      return `revoked the SCIM token ${target}`;
    // Like every entry about a recipient, by id only (decision 015): which fields, never their values.
    case 'scim.user_created':
      return 'provisioned a recipient';
    case 'scim.user_adopted':
      return 'took over an existing recipient with the same email';
    case 'scim.user_updated': {
      const fields = Array.isArray(entry.after?.fields) ? (entry.after.fields as string[]).join(', ') : '';
      return fields ? `updated a recipient (${fields})` : 'updated a recipient';
    }
    case 'scim.user_deactivated':
      return 'deactivated a recipient who left';
    case 'scim.user_reactivated':
      return 'reactivated a recipient';
    case 'scim.group_created':
      return `created the group ${target}`;
    case 'scim.group_updated':
      return `updated the group ${target}`;
    case 'scim.group_deleted':
      return `deleted the group ${target}`;
    default:
      return 'made a change';
  }
}

/** The whole sentence: "Ana Admin invited bob@x.com as member". */
export function auditSentence(entry: AuditEntry, nameOf?: (userId: string) => string | undefined): string {
  return `${auditActor(entry)} ${auditAction(entry, nameOf)}`;
}
