import { z } from 'zod';
import { Timestamp } from './common';
import { limitParam, offsetParam } from './pagination';

export const INTEGRATION_TYPES = ['email', 'sms', 'webhook', 'api', 'slack', 'teams'] as const;
export const IntegrationType = z.enum(INTEGRATION_TYPES, {
  message: 'Type must be email, sms, webhook, api, slack or teams',
});
export type IntegrationType = z.infer<typeof IntegrationType>;

/** The mail item events a webhook can receive (Standard Webhooks `type`). */
export const WEBHOOK_EVENTS = [
  'mail_item.created',
  'mail_item.notified',
  'mail_item.delivered',
  'mail_item.returned',
  'mail_item.deleted',
] as const;
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);

/** Shown instead of a stored secret; sending it back (or leaving the field out) keeps the secret. */
export const MASKED_SECRET = '••••••••';

export const INTEGRATION_MESSAGES = {
  webhookUrl: 'Webhook URL must be a valid URL',
  privateAddress: 'Webhook URL must be a public address (private, loopback and link-local addresses are refused)',
  createFailed: 'Failed to create integration',
  updateFailed: 'Failed to update integration',
  deleteFailed: 'Failed to delete integration',
  statusFailed: 'Failed to update integration status',
  notFound: 'Integration not found',
  teamsUrl: 'Teams webhook URL must be a valid URL (the one a Teams Workflows webhook gives)',
  teamsPrivate: 'Teams webhook URL must be a public address (private, loopback and link-local addresses are refused)',
  teamsMailroom: 'Mailroom not found in this organization',
} as const;

/** What Slack's checks answer, for the dialog and the API's 4xx replies (decision 064). */
export const SLACK_MESSAGES = {
  tokenRequired: 'Bot token is required',
  tokenRefused: 'Slack refused the bot token: check that it is the Bot User OAuth Token (xoxb-…) of an installed app',
  unreachable: 'Slack could not be reached; try again in a moment',
  notSlack: 'Only Slack integrations have channels',
  userNotFound: 'The recipient is not in the Slack workspace',
  attention: 'connect the workspace again with a new bot token',
} as const;

/** GET /api/integrations/{id}/slack-channels: the channels the bot can post to, for the staff channel. */
export const SlackChannel = z.object({
  id: z.string(),
  name: z.string(),
  isPrivate: z.boolean(),
  /** Whether the bot is a member (a public channel it is not in refuses its messages until invited). */
  isMember: z.boolean(),
});
export type SlackChannel = z.infer<typeof SlackChannel>;

const optionalText = (max: number, label: string) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).optional();

/** As the client sends it. Secrets left out, blank or equal to MASKED_SECRET keep the stored value. */
export const IntegrationConfigInput = z.object({
  webhookUrl: z.string().trim().url(INTEGRATION_MESSAGES.webhookUrl).max(2048).optional().or(z.literal('')),
  webhookEvents: z.array(WebhookEvent).optional(),
  emailSettings: z
    .object({
      smtpHost: optionalText(255, 'SMTP host'),
      smtpPort: z.coerce
        .number({ message: 'SMTP port must be a number' })
        .int('SMTP port must be a whole number')
        .min(1, 'SMTP port must be between 1 and 65535')
        .max(65535, 'SMTP port must be between 1 and 65535')
        .optional(),
      username: optionalText(255, 'Username'),
      password: optionalText(500, 'Password'),
      fromAddress: optionalText(255, 'From address'),
      secure: z.boolean().optional(),
    })
    .optional(),
  smsSettings: z
    .object({
      accountSid: optionalText(100, 'Account SID'),
      authToken: optionalText(200, 'Auth token'),
      fromNumber: optionalText(30, 'From number'),
      baseUrl: z.string().trim().url('SMS base URL must be a valid URL').max(500).optional().or(z.literal('')),
    })
    .optional(),
  /**
   * A Microsoft Teams channel (decision 065): the Workflows webhook URL (a secret: left out, blank
   * or MASKED_SECRET keeps the stored one) and the mailroom it announces (null: every mailroom).
   */
  teamsSettings: z
    .object({
      webhookUrl: z
        .string()
        .trim()
        .max(2048, 'Teams webhook URL must be at most 2048 characters')
        .refine(
          (v) => v === '' || v === MASKED_SECRET || (/^https?:\/\//i.test(v) && z.url().safeParse(v).success),
          INTEGRATION_MESSAGES.teamsUrl,
        )
        .optional(),
      mailroomId: z.uuid('Mailroom must be a mailroom id').nullable().optional(),
    })
    .optional(),
  /** A Slack workspace (decision 064): the bot token is checked with auth.test on save. */
  slackSettings: z
    .object({
      botToken: optionalText(300, 'Bot token'),
      /** A channel id from GET /api/integrations/{id}/slack-channels; blank: no staff channel. */
      staffChannelId: z
        .string()
        .trim()
        .regex(/^[A-Z0-9]{1,30}$/, 'Staff channel must be a Slack channel id (e.g. C0123ABCD)')
        .optional()
        .or(z.literal('')),
      staffChannelName: optionalText(255, 'Staff channel name'),
    })
    .optional(),
});

/** As the server answers it: secrets replaced by MASKED_SECRET when set (never in clear). */
export const IntegrationConfig = z.object({
  webhookUrl: z.string().optional(),
  webhookEvents: z.array(z.string()).optional(),
  /** 'whsec_…' masked; the full secret is shown once, in the create (or rotate) reply's webhookSecret. */
  webhookSecret: z.string().optional(),
  emailSettings: z
    .object({
      smtpHost: z.string().optional(),
      smtpPort: z.number().optional(),
      username: z.string().optional(),
      password: z.string().optional(),
      fromAddress: z.string().optional(),
      secure: z.boolean().optional(),
    })
    .optional(),
  smsSettings: z
    .object({
      accountSid: z.string().optional(),
      authToken: z.string().optional(),
      fromNumber: z.string().optional(),
      baseUrl: z.string().optional(),
    })
    .optional(),
  /** The URL masked; its host shown so the admin can tell which flow it is. */
  teamsSettings: z
    .object({
      webhookUrl: z.string().optional(),
      webhookHost: z.string().optional(),
      mailroomId: z.string().nullable().optional(),
    })
    .optional(),
  slackSettings: z
    .object({
      botToken: z.string().optional(),
      staffChannelId: z.string().optional(),
      staffChannelName: z.string().optional(),
      /** The workspace the token belongs to, as auth.test answered on save. */
      teamId: z.string().optional(),
      teamName: z.string().optional(),
      botUserId: z.string().optional(),
    })
    .optional(),
});

export const Integration = z.object({
  id: z.uuid(),
  organizationId: z.uuid(),
  name: z.string(),
  type: IntegrationType,
  config: IntegrationConfig,
  isActive: z.boolean(),
  /**
   * Set when the integration cannot send until an admin acts (Slack revoked its token): its
   * messages are skipped with this reason; saving it with a working token clears it.
   */
  attention: z.object({ reason: z.string(), since: Timestamp }).nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** Delivery figures of the last 7 days (messages sent through it). */
  stats: z.object({ sent: z.number().int(), failed: z.number().int(), queued: z.number().int() }),
});
export type Integration = z.infer<typeof Integration>;

/** POST /api/integrations (admins). organizationId may be sent (the spec's client does); the header decides. */
export const CreateIntegrationBody = z.object({
  name: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(255),
  type: IntegrationType,
  config: IntegrationConfigInput.default({}),
  isActive: z.boolean().default(true),
  organizationId: z.string().optional(),
});

/** PUT /api/integrations/{id} (admins): the full payload, or only isActive. The type cannot change. */
export const UpdateIntegrationBody = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(255),
    config: IntegrationConfigInput,
    isActive: z.boolean(),
    type: IntegrationType,
    organizationId: z.string(),
  })
  .partial();

/**
 * The create reply: the integration plus, once, the secrets generated for it: an 'api'
 * integration's first API key, a webhook's signing secret.
 */
export const CreatedIntegration = Integration.extend({
  apiKey: z.string().optional(),
  webhookSecret: z.string().optional(),
});

/** POST /api/integrations/{id}/test: sends a test message now (email: to the caller; sms: to `to`). */
export const TestIntegrationBody = z.object({
  to: z.string().trim().max(255).optional(),
});
export const TestIntegrationReply = z.object({
  ok: z.boolean(),
  message: z.string(),
  responseStatus: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
});

/** API keys of an 'api' integration. */
export const ApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  createdAt: Timestamp,
  lastUsedAt: Timestamp.nullable(),
  revokedAt: Timestamp.nullable(),
});
export const CreateApiKeyBody = z.object({
  name: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(255),
});
/** The key in clear, shown once. */
export const CreatedApiKey = ApiKey.extend({ key: z.string() });

/** The channels a message goes out on (notification_jobs.channel, 'event' rows excepted). */
export const MESSAGE_CHANNELS = ['email', 'sms', 'webhook', 'slack', 'teams'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

export const NOTIFICATION_STATUSES = ['queued', 'sending', 'sent', 'failed', 'skipped'] as const;

/** One message: GET /api/mail-items/{id}/notifications and GET /api/integrations/{id}/deliveries. */
export const NotificationMessage = z.object({
  id: z.uuid(),
  channel: z.enum(MESSAGE_CHANNELS),
  event: z.string(),
  mailItemId: z.uuid().nullable(),
  integrationId: z.uuid().nullable(),
  destination: z.string().nullable(),
  status: z.enum(NOTIFICATION_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  skipReason: z.string().nullable(),
  responseStatus: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  createdAt: Timestamp,
  sentAt: Timestamp.nullable(),
  nextAttemptAt: Timestamp.nullable(),
});
export type NotificationMessage = z.infer<typeof NotificationMessage>;

export const DeliveriesQuery = z.object({ limit: limitParam(100, 25), offset: offsetParam });
