import type { AuditEntry } from '@contract';
// relative, so the unit test (no path aliases in vitest.config) can load it
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
  pickupInstructions: 'pickup instructions',
};

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

/** Who did it: the actor's name, or "Someone" when the account is gone. */
export function auditActor(entry: AuditEntry): string {
  return entry.actor ? displayName(entry.actor) : 'Someone';
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
    default:
      return 'made a change';
  }
}

/** The whole sentence: "Ana Admin invited bob@x.com as member". */
export function auditSentence(entry: AuditEntry, nameOf?: (userId: string) => string | undefined): string {
  return `${auditActor(entry)} ${auditAction(entry, nameOf)}`;
}
