import type { OrgCaller } from '../../context';
import type { DbOrTx } from '../../db/client';
import type { IntegrationConfig as StoredConfig } from '../../db/schema';
import type { SecretBox } from '../../lib/secrets';
import { definedOnly } from '../../lib/objects';
import { auditRepository, changedViews, SECRET_CHANGED } from '../audit/audit.repository';
import type { ApiKeyRow } from './api-keys';
import type { IntegrationRow } from './integrations.repository';

/**
 * The integration as its audit entries show it: the non-secret config fields, flattened (each
 * integration has one type's settings, so their names do not collide). Listed one by one, so a
 * secret added to the config later stays out unless it is named here.
 */
export function auditView(row: Pick<IntegrationRow, 'name' | 'type' | 'isActive' | 'config'>): Record<string, unknown> {
  const c = row.config;
  const e = c.emailSettings ?? {};
  const s = c.smsSettings ?? {};
  const k = c.slackSettings ?? {};
  return definedOnly({
    name: row.name,
    type: row.type,
    isActive: row.isActive,
    webhookUrl: c.webhookUrl,
    webhookEvents: c.webhookEvents,
    smtpHost: e.smtpHost,
    smtpPort: e.smtpPort,
    username: e.username,
    fromAddress: e.fromAddress,
    secure: e.secure,
    accountSid: s.accountSid,
    fromNumber: s.fromNumber,
    baseUrl: s.baseUrl,
    slackTeam: k.teamName,
    staffChannel: k.staffChannelName ?? k.staffChannelId,
  });
}

/** Whether two stored (encrypted) secrets hold the same value; ciphertexts differ on every encryption. */
function sameSecret(a: string | undefined, b: string | undefined, secrets: SecretBox): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  try {
    return secrets.decrypt(a) === secrets.decrypt(b);
  } catch {
    return false;
  }
}

/** The names of the secrets an edit changed (compared in memory; only the names are recorded). */
function changedSecrets(before: StoredConfig, after: StoredConfig, secrets: SecretBox): string[] {
  const pairs: Array<[string, string | undefined, string | undefined]> = [
    ['webhookSecret', before.webhookSecret, after.webhookSecret],
    ['password', before.emailSettings?.password, after.emailSettings?.password],
    ['authToken', before.smsSettings?.authToken, after.smsSettings?.authToken],
    ['botToken', before.slackSettings?.botToken, after.slackSettings?.botToken],
  ];
  return pairs.filter(([, b, a]) => !sameSecret(b, a, secrets)).map(([name]) => name);
}

/**
 * An edit's before and after: the non-secret fields that changed with their values, and each
 * changed secret as its name with SECRET_CHANGED on both sides. Null when nothing changed.
 */
export function integrationChanges(before: IntegrationRow, after: IntegrationRow, secrets: SecretBox) {
  const diff = changedViews(auditView(before), auditView(after));
  const marks = Object.fromEntries(
    changedSecrets(before.config, after.config, secrets).map((k) => [k, SECRET_CHANGED]),
  );
  if (!diff && Object.keys(marks).length === 0) return null;
  return { before: { ...diff?.before, ...marks }, after: { ...diff?.after, ...marks } };
}

/** A new API key's entry: its name and display prefix only, never the key or its hash. */
export async function recordKeyCreated(tx: DbOrTx, caller: OrgCaller, key: ApiKeyRow) {
  await auditRepository.record(tx, {
    organizationId: caller.organizationId,
    actorId: caller.userId,
    action: 'api_key.created',
    targetType: 'api_key',
    targetId: key.id,
    targetLabel: key.name,
    after: { name: key.name, prefix: key.prefix },
  });
}
