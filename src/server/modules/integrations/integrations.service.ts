import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  INTEGRATION_MESSAGES,
  SLACK_MESSAGES,
  type ApiKey,
  type CreateIntegrationBody,
  type CreatedApiKey,
  type CreatedIntegration,
  type DeliveriesQuery,
  type Integration,
  type NotificationMessage,
  type SlackChannel,
  type TestIntegrationBody,
  type TestIntegrationReply,
  type UpdateIntegrationBody,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import type { DbOrTx } from '../../db/client';
import { mailrooms, organizations, users } from '../../db/schema';
import type { SecretBox } from '../../lib/secrets';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { iso, isoOrNull } from '../../lib/time';
import { auditRepository } from '../audit/audit.repository';
import { writeBlockError, writeBlockFor } from '../organizations/plan-access';
import { apiKeysRepository, newApiKey, type ApiKeyRow } from './api-keys';
import { auditView, integrationChanges, recordKeyCreated } from './integration-audit';
import {
  maskConfig,
  mergeConfig,
  newWebhookSecret,
  validateConfig,
  type ValidationContext,
} from '../notifications/integration-config';
import {
  integrationsRepository,
  type IntegrationRow,
  type IntegrationStats,
  type NotificationJobRow,
} from './integrations.repository';
import {
  sendTestEmail,
  sendTestSlack,
  sendTestSms,
  sendTestTeams,
  sendTestWebhook,
  type TestOutcome,
} from '../notifications/test-send';
import { checkSlackConfig, listSlackChannels } from '../notifications/slack-workspace';

type ApiKeyDto = z.output<typeof ApiKey>;
type CreatedApiKeyDto = z.output<typeof CreatedApiKey>;
type TestReply = z.output<typeof TestIntegrationReply>;

export type CreateIntegrationInput = z.output<typeof CreateIntegrationBody>;
export type UpdateIntegrationInput = z.output<typeof UpdateIntegrationBody>;

export const INTEGRATION_ERRORS = {
  typeChange: 'The type of an integration cannot change; delete it and add a new one',
  notApi: 'Only API integrations have API keys',
  notWebhook: 'Only webhook integrations have a signing secret',
  smsTo: 'Enter the phone number to send the test SMS to',
  apiKeyNotFound: 'API key not found',
} as const;

const NO_STATS: IntegrationStats = { sent: 0, failed: 0, queued: 0 };

function toDto(row: IntegrationRow, stats: IntegrationStats = NO_STATS, secrets?: SecretBox): Integration {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    type: row.type,
    config: maskConfig(row.config, secrets),
    isActive: row.isActive,
    attention: row.attentionReason
      ? { reason: row.attentionReason, since: iso(row.attentionAt ?? row.updatedAt) }
      : null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    stats,
  };
}

function toApiKeyDto(row: ApiKeyRow): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: iso(row.createdAt),
    lastUsedAt: isoOrNull(row.lastUsedAt),
    revokedAt: isoOrNull(row.revokedAt),
  };
}

function toMessageDto(row: NotificationJobRow): NotificationMessage {
  return {
    id: row.id,
    channel: row.channel as NotificationMessage['channel'],
    event: row.event,
    mailItemId: row.mailItemId,
    integrationId: row.integrationId,
    destination: row.destination,
    status: (row.status === 'done' ? 'sent' : row.status) as NotificationMessage['status'],
    attempts: row.attempts,
    lastError: row.lastError,
    skipReason: row.skipReason,
    responseStatus: row.responseStatus,
    latencyMs: row.latencyMs,
    createdAt: iso(row.createdAt),
    sentAt: isoOrNull(row.sentAt),
    nextAttemptAt: row.status === 'queued' ? iso(row.nextAttemptAt) : null,
  };
}

export function createIntegrationsService({ db, config, secrets, mailer }: Deps) {
  /** The rules' context for one organization: a Teams channel's mailroom must be one of its own. */
  const validation = (organizationId: string): ValidationContext => ({
    allowPrivateTargets: config.allowPrivateTargets,
    platformSmtp: Boolean(config.smtpUrl),
    reveal: (stored) => secrets.decrypt(stored),
    mailroomExists: async (id) =>
      (
        await db
          .select({ id: mailrooms.id })
          .from(mailrooms)
          .where(and(eq(mailrooms.organizationId, organizationId), eq(mailrooms.id, id)))
      ).length > 0,
  });
  const dto = (row: IntegrationRow, stats?: IntegrationStats) => toDto(row, stats, secrets);

  async function find(caller: OrgCaller, id: string, tx: DbOrTx = db, lock = false) {
    const row = await integrationsRepository.find(tx, caller.organizationId, id, lock);
    if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
    return row;
  }

  async function withStats(organizationId: string, row: IntegrationRow): Promise<Integration> {
    const stats = await integrationsRepository.stats(db, organizationId, [row.id]);
    return dto(row, stats.get(row.id));
  }

  async function requireApiIntegration(caller: OrgCaller, id: string, tx: DbOrTx = db) {
    const row = await find(caller, id, tx);
    if (row.type !== 'api') throw badRequest(INTEGRATION_ERRORS.notApi, 'not_api_integration');
    return row;
  }

  /** A Slack test: a line in the staff channel when one is picked, else only auth.test. */
  return {
    async list(caller: OrgCaller): Promise<Integration[]> {
      const rows = await integrationsRepository.list(db, caller.organizationId);
      const stats = await integrationsRepository.stats(
        db,
        caller.organizationId,
        rows.map((r) => r.id),
      );
      return rows.map((r) => dto(r, stats.get(r.id)));
    },

    /**
     * 402 trial_expired or subscription_inactive, 400 on the type's rules; a webhook gets its
     * signing secret, an API integration its first key.
     */
    async create(caller: OrgCaller, input: CreateIntegrationInput): Promise<z.input<typeof CreatedIntegration>> {
      const block = await writeBlockFor(db, caller.organizationId);
      if (block) throw writeBlockError(block);
      let stored = mergeConfig(input.type, input.config, {}, secrets);
      await validateConfig(input.type, stored, validation(caller.organizationId));
      // Slack answers for its token before anything is written (decision 064).
      if (input.type === 'slack') stored = await checkSlackConfig(config.slackApiUrl, secrets, stored);
      const webhookSecret = input.type === 'webhook' ? newWebhookSecret() : undefined;
      if (webhookSecret) stored.webhookSecret = secrets.encrypt(webhookSecret);
      return db.transaction(async (tx) => {
        const row = await integrationsRepository.insert(tx, {
          organizationId: caller.organizationId,
          name: input.name,
          type: input.type,
          config: stored,
          isActive: input.isActive,
        });
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'integration.created',
          targetType: 'integration',
          targetId: row.id,
          targetLabel: row.name,
          after: auditView(row),
        });
        let apiKey: string | undefined;
        if (row.type === 'api') {
          const made = newApiKey();
          const key = await apiKeysRepository.insert(tx, {
            organizationId: caller.organizationId,
            integrationId: row.id,
            name: 'Default key',
            prefix: made.prefix,
            keyHash: made.keyHash,
            createdBy: caller.userId,
          });
          await recordKeyCreated(tx, caller, key);
          apiKey = made.key;
        }
        return { ...dto(row), ...(apiKey ? { apiKey } : {}), ...(webhookSecret ? { webhookSecret } : {}) };
      });
    },

    /** The full payload or only some fields (e.g. {isActive}); secrets left out, blank or masked are kept. */
    async update(caller: OrgCaller, id: string, input: UpdateIntegrationInput): Promise<Integration> {
      // A Slack config is checked with Slack first, outside the transaction (no row lock held
      // over a call to another service); what auth.test answered goes into the saved config.
      let slackIdentity: IntegrationRow['config']['slackSettings'] | undefined;
      if (input.config !== undefined) {
        const before = await find(caller, id);
        if (before.type === 'slack') {
          const merged = mergeConfig('slack', input.config, before.config, secrets);
          await validateConfig('slack', merged, validation(caller.organizationId));
          slackIdentity = (await checkSlackConfig(config.slackApiUrl, secrets, merged)).slackSettings;
        }
      }
      const row = await db.transaction(async (tx) => {
        const current = await integrationsRepository.find(tx, caller.organizationId, id, true);
        if (!current) throw notFound(INTEGRATION_MESSAGES.notFound);
        if (input.type !== undefined && input.type !== current.type) {
          throw new AppError(400, INTEGRATION_ERRORS.typeChange, 'validation_error', [
            { path: 'type', message: INTEGRATION_ERRORS.typeChange },
          ]);
        }
        let nextConfig: IntegrationRow['config'] | undefined;
        if (input.config !== undefined) {
          nextConfig = mergeConfig(current.type, input.config, current.config, secrets);
          await validateConfig(current.type, nextConfig, validation(caller.organizationId));
          if (slackIdentity) {
            const k = slackIdentity;
            nextConfig = {
              ...nextConfig,
              slackSettings: {
                ...nextConfig.slackSettings,
                teamId: k.teamId,
                teamName: k.teamName,
                botUserId: k.botUserId,
              },
            };
          }
        }
        const updated = await integrationsRepository.update(tx, caller.organizationId, id, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
          ...(nextConfig ? { config: nextConfig } : {}),
          // Slack accepted the token just now: whatever needed attention is fixed.
          ...(slackIdentity ? { attentionReason: null, attentionAt: null } : {}),
        });
        const changes = updated && integrationChanges(current, updated, secrets);
        // Its API keys stop working at once, on every instance.
        if (changes) {
          await auditRepository.record(tx, {
            organizationId: caller.organizationId,
            actorId: caller.userId,
            action: 'integration.updated',
            targetType: 'integration',
            targetId: id,
            targetLabel: updated.name,
            ...changes,
          });
        }
        return updated;
      });
      if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
      return withStats(caller.organizationId, row);
    },

    /** Its API keys go with it (the foreign key); the entry keeps what it was. */
    async remove(caller: OrgCaller, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const current = await find(caller, id, tx, true);
        if (!(await integrationsRepository.delete(tx, caller.organizationId, id))) {
          throw notFound(INTEGRATION_MESSAGES.notFound);
        }
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'integration.deleted',
          targetType: 'integration',
          targetId: id,
          targetLabel: current.name,
          before: auditView(current),
        });
      });
    },

    /** A new webhook signing secret, answered once; the old one stops signing at once. */
    async rotateSecret(caller: OrgCaller, id: string): Promise<z.input<typeof CreatedIntegration>> {
      const webhookSecret = newWebhookSecret();
      const row = await db.transaction(async (tx) => {
        const current = await find(caller, id, tx, true);
        if (current.type !== 'webhook') throw badRequest(INTEGRATION_ERRORS.notWebhook, 'not_webhook_integration');
        const updated = await integrationsRepository.update(tx, caller.organizationId, id, {
          config: { ...current.config, webhookSecret: secrets.encrypt(webhookSecret) },
        });
        if (!updated) throw notFound(INTEGRATION_MESSAGES.notFound);
        // The action says what changed; the entry holds no secret, not even a marker.
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'integration.secret_rotated',
          targetType: 'integration',
          targetId: id,
          targetLabel: updated.name,
        });
        return updated;
      });
      return { ...(await withStats(caller.organizationId, row)), webhookSecret };
    },

    /** Sends a test message now and records it in the delivery log. */
    async test(caller: OrgCaller, id: string, body: z.output<typeof TestIntegrationBody>): Promise<TestReply> {
      const row = await find(caller, id);
      if (row.type === 'api') {
        return {
          ok: true,
          message: 'API integrations receive no messages: call the API with one of its keys (see /api/docs)',
          responseStatus: null,
          latencyMs: null,
        };
      }
      const sendDeps = { config, secrets, mailer };
      let outcome: TestOutcome;
      if (row.type === 'email') {
        const [who] = await db.select({ email: users.email }).from(users).where(eq(users.id, caller.userId));
        const [org] = await db
          .select({ name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, caller.organizationId));
        if (!who) throw notFound('User not found');
        outcome = await sendTestEmail(sendDeps, row.config, who.email, org?.name ?? 'your organization');
      } else if (row.type === 'slack') {
        outcome = await sendTestSlack(sendDeps, row.config);
      } else if (row.type === 'sms') {
        if (!body.to)
          throw new AppError(400, INTEGRATION_ERRORS.smsTo, 'validation_error', [
            { path: 'to', message: INTEGRATION_ERRORS.smsTo },
          ]);
        outcome = await sendTestSms(sendDeps, row.config, body.to);
      } else if (row.type === 'teams') {
        outcome = await sendTestTeams(sendDeps, row.config, row.name);
      } else {
        outcome = await sendTestWebhook(sendDeps, row.config, {
          integrationId: row.id,
          organizationId: row.organizationId,
        });
      }
      await integrationsRepository.recordMessage(db, {
        organizationId: caller.organizationId,
        integrationId: row.id,
        channel: row.type,
        event: 'test',
        destination: outcome.destination,
        status: outcome.ok ? 'sent' : 'failed',
        lastError: outcome.ok ? null : outcome.message,
        responseStatus: outcome.responseStatus,
        latencyMs: outcome.latencyMs,
        providerId: outcome.providerId ?? null,
        sentAt: outcome.ok ? new Date() : null,
        payload: { test: true, requestedBy: caller.userId },
      });
      return {
        ok: outcome.ok,
        message: outcome.message,
        responseStatus: outcome.responseStatus,
        latencyMs: outcome.latencyMs,
      };
    },

    /** The channels the integration's bot token sees, for the staff channel's choice (decision 064). */
    async slackChannels(caller: OrgCaller, id: string): Promise<SlackChannel[]> {
      const row = await find(caller, id);
      if (row.type !== 'slack') throw badRequest(SLACK_MESSAGES.notSlack, 'not_slack_integration');
      return listSlackChannels(config.slackApiUrl, secrets, row.config);
    },

    async deliveries(
      caller: OrgCaller,
      id: string,
      page: z.output<typeof DeliveriesQuery>,
    ): Promise<{ items: NotificationMessage[]; total: number }> {
      await find(caller, id);
      const { rows, total } = await integrationsRepository.deliveries(db, caller.organizationId, id, page);
      return { items: rows.map(toMessageDto), total };
    },

    async listApiKeys(caller: OrgCaller, id: string): Promise<ApiKeyDto[]> {
      await requireApiIntegration(caller, id);
      return (await apiKeysRepository.list(db, caller.organizationId, id)).map(toApiKeyDto);
    },

    /** The key in clear once; only its SHA-256 and a display prefix are kept. */
    async createApiKey(caller: OrgCaller, id: string, name: string): Promise<CreatedApiKeyDto> {
      const made = newApiKey();
      const row = await db.transaction(async (tx) => {
        await requireApiIntegration(caller, id, tx);
        const key = await apiKeysRepository.insert(tx, {
          organizationId: caller.organizationId,
          integrationId: id,
          name,
          prefix: made.prefix,
          keyHash: made.keyHash,
          createdBy: caller.userId,
        });
        await recordKeyCreated(tx, caller, key);
        return key;
      });
      return { ...toApiKeyDto(row), key: made.key };
    },

    async revokeApiKey(caller: OrgCaller, id: string, keyId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await find(caller, id, tx);
        const result = await apiKeysRepository.revoke(tx, caller.organizationId, id, keyId);
        if (!result) throw notFound(INTEGRATION_ERRORS.apiKeyNotFound);
        // Revoking a revoked key changes nothing and records nothing.
        if (result.revokedNow) {
          await auditRepository.record(tx, {
            organizationId: caller.organizationId,
            actorId: caller.userId,
            action: 'api_key.revoked',
            targetType: 'api_key',
            targetId: keyId,
            targetLabel: result.row.name,
            before: { name: result.row.name, prefix: result.row.prefix },
          });
        }
      });
    },
  };
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
