import { eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { integrations, rosterSources, type IntegrationConfig } from '../../db/schema';
import type { SecretBox } from '../../lib/secrets';

/** Where an integration keeps a secret in its stored config. */
const SECRET_FIELDS: ReadonlyArray<{
  get: (c: IntegrationConfig) => string | undefined;
  set: (c: IntegrationConfig, value: string) => IntegrationConfig;
}> = [
  { get: (c) => c.webhookSecret, set: (c, webhookSecret) => ({ ...c, webhookSecret }) },
  {
    get: (c) => c.emailSettings?.password,
    set: (c, password) => ({ ...c, emailSettings: { ...c.emailSettings, password } }),
  },
  {
    get: (c) => c.smsSettings?.authToken,
    set: (c, authToken) => ({ ...c, smsSettings: { ...c.smsSettings, authToken } }),
  },
  {
    get: (c) => c.slackSettings?.botToken,
    set: (c, botToken) => ({ ...c, slackSettings: { ...c.slackSettings, botToken } }),
  },
];

export type RotationResult = { reencrypted: number; unreadable: number };

/**
 * After SECRETS_KEY changed (the old key in SECRETS_KEY_PREVIOUS): re-encrypts every stored
 * integration secret, and every roster source's secret (its HTTPS header value, its SFTP password
 * or private key: decision 061), that the current key did not write. Rows are locked while rewritten, so
 * instances starting together do the work once; a value no configured key can read is counted
 * and left as it is (its integration needs the secret typed again).
 */
export async function reencryptIntegrationSecrets(db: Db, secrets: SecretBox): Promise<RotationResult> {
  return db.transaction(async (tx) => {
    const rows = await tx.select({ id: integrations.id, config: integrations.config }).from(integrations).for('update');
    let reencrypted = 0;
    let unreadable = 0;
    for (const row of rows) {
      let config = row.config;
      for (const field of SECRET_FIELDS) {
        const stored = field.get(config);
        if (!stored || secrets.isCurrent(stored)) continue;
        try {
          config = field.set(config, secrets.encrypt(secrets.decrypt(stored)));
          reencrypted += 1;
        } catch {
          unreadable += 1;
        }
      }
      if (config !== row.config) await tx.update(integrations).set({ config }).where(eq(integrations.id, row.id));
    }
    // The roster's sources, of every organization (decision 061).
    const sources = await tx
      .select({ id: rosterSources.id, secret: rosterSources.secret })
      .from(rosterSources)
      .where(isNotNull(rosterSources.secret))
      .for('update');
    for (const source of sources) {
      if (!source.secret || secrets.isCurrent(source.secret)) continue;
      try {
        const secret = secrets.encrypt(secrets.decrypt(source.secret));
        await tx.update(rosterSources).set({ secret }).where(eq(rosterSources.id, source.id));
        reencrypted += 1;
      } catch {
        unreadable += 1;
      }
    }
    return { reencrypted, unreadable };
  });
}
