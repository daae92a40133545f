import crypto from 'node:crypto';
import dns from 'node:dns/promises';
import net from 'node:net';
import type { z } from 'zod';
import {
  INTEGRATION_MESSAGES,
  MASKED_SECRET,
  type IntegrationConfig,
  type IntegrationConfigInput,
  type IntegrationType,
} from '../../../contract';
import type { IntegrationConfig as StoredConfig } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { isPublicAddress, isPublicUrl } from '../../lib/public-address';
import { definedOnly } from '../../lib/objects';
import type { SecretBox } from '../../lib/secrets';

export type ConfigInput = z.output<typeof IntegrationConfigInput>;
type IntegrationConfigDto = z.output<typeof IntegrationConfig>;

export const CONFIG_MESSAGES = {
  smtpHostRequired: 'SMTP host is required (no platform SMTP server is configured)',
  smtpHostPrivate: 'SMTP host must be a public address (private, loopback and link-local addresses are refused)',
  smsBaseUrlPrivate: 'SMS base URL must be a public address (private, loopback and link-local addresses are refused)',
  accountSid: 'Account SID is required',
  authToken: 'Auth token is required',
  fromNumber: 'From number is required',
  botToken: 'Bot token is required',
} as const;

/** A secret the client sent: left out, blank or the mask means "keep the stored one". */
function keepsSecret(value: string | undefined): boolean {
  return value === undefined || value.trim() === '' || value === MASKED_SECRET;
}

/** A new Standard Webhooks signing secret: 'whsec_' + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());

/** Drops undefined values so the stored JSON holds only what was set. */
function compact<T extends Record<string, unknown>>(value: T): T | undefined {
  const set = definedOnly(value);
  return Object.keys(set).length ? (set as T) : undefined;
}

/**
 * The config to store: the input's fields (only those of the integration's type), secrets
 * encrypted, and secrets the input leaves out, blank or masked taken from `stored`.
 */
export function mergeConfig(
  type: IntegrationType,
  input: ConfigInput,
  stored: StoredConfig,
  secrets: SecretBox,
): StoredConfig {
  const secret = (given: string | undefined, kept: string | undefined) =>
    keepsSecret(given) ? kept : secrets.encrypt(given!.trim());
  switch (type) {
    case 'webhook':
      return {
        ...(blank(input.webhookUrl) ? { webhookUrl: input.webhookUrl!.trim() } : {}),
        ...(input.webhookEvents?.length ? { webhookEvents: [...new Set(input.webhookEvents)] } : {}),
        ...(stored.webhookSecret ? { webhookSecret: stored.webhookSecret } : {}),
      };
    case 'email': {
      const e = input.emailSettings ?? {};
      const emailSettings = compact({
        smtpHost: blank(e.smtpHost),
        smtpPort: e.smtpPort,
        username: blank(e.username),
        password: secret(e.password, stored.emailSettings?.password),
        fromAddress: blank(e.fromAddress),
        secure: e.secure,
      });
      return emailSettings ? { emailSettings } : {};
    }
    case 'sms': {
      const s = input.smsSettings ?? {};
      const smsSettings = compact({
        accountSid: blank(s.accountSid),
        authToken: secret(s.authToken, stored.smsSettings?.authToken),
        fromNumber: blank(s.fromNumber),
        baseUrl: blank(s.baseUrl),
      });
      return smsSettings ? { smsSettings } : {};
    }
    case 'teams': {
      const t = input.teamsSettings ?? {};
      const webhookUrl = secret(t.webhookUrl, stored.teamsSettings?.webhookUrl);
      const mailroomId = t.mailroomId === undefined ? stored.teamsSettings?.mailroomId : t.mailroomId;
      return { teamsSettings: { ...(webhookUrl ? { webhookUrl } : {}), mailroomId: mailroomId ?? null } };
    }
    case 'slack': {
      const k = input.slackSettings ?? {};
      const channelId = blank(k.staffChannelId);
      // Who the token is (team, bot) is written by the service from auth.test, never by the client.
      const slackSettings = compact({
        botToken: secret(k.botToken, stored.slackSettings?.botToken),
        staffChannelId: channelId,
        staffChannelName: channelId ? blank(k.staffChannelName) : undefined,
      });
      return slackSettings ? { slackSettings } : {};
    }
    case 'api':
      return {};
  }
}

/** The host of a stored (encrypted) Teams URL: what the admin sees of it. */
function hostOf(url: string | undefined, secrets: SecretBox | undefined): string | undefined {
  if (!url || !secrets) return undefined;
  try {
    return new URL(secrets.decrypt(url)).host;
  } catch {
    return undefined;
  }
}

/** As answered: every secret that is set becomes MASKED_SECRET (a Teams URL keeps its host shown). */
export function maskConfig(stored: StoredConfig, secrets?: SecretBox): IntegrationConfigDto {
  const mask = (v: string | undefined) => (v ? MASKED_SECRET : undefined);
  const out: IntegrationConfigDto = {};
  if (stored.webhookUrl !== undefined) out.webhookUrl = stored.webhookUrl;
  if (stored.webhookEvents !== undefined) out.webhookEvents = stored.webhookEvents;
  if (stored.webhookSecret) out.webhookSecret = MASKED_SECRET;
  if (stored.emailSettings) {
    out.emailSettings = { ...stored.emailSettings, password: mask(stored.emailSettings.password) };
    if (out.emailSettings.password === undefined) delete out.emailSettings.password;
  }
  if (stored.smsSettings) {
    out.smsSettings = { ...stored.smsSettings, authToken: mask(stored.smsSettings.authToken) };
    if (out.smsSettings.authToken === undefined) delete out.smsSettings.authToken;
  }
  if (stored.teamsSettings) {
    const { webhookUrl, mailroomId } = stored.teamsSettings;
    out.teamsSettings = definedOnly({
      webhookUrl: mask(webhookUrl),
      webhookHost: hostOf(webhookUrl, secrets),
      mailroomId: mailroomId ?? null,
    });
  }
  if (stored.slackSettings) {
    out.slackSettings = { ...stored.slackSettings, botToken: mask(stored.slackSettings.botToken) };
    if (out.slackSettings.botToken === undefined) delete out.slackSettings.botToken;
  }
  return out;
}

/** Whether every address a host name resolves to is public (SSRF guard for SMTP hosts). */
export async function isPublicHost(host: string): Promise<boolean> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare)) return isPublicAddress(bare);
  try {
    const addresses = await dns.lookup(bare, { all: true, verbatim: true });
    return addresses.length > 0 && addresses.every((a) => isPublicAddress(a.address));
  } catch {
    return false;
  }
}

export type ValidationContext = {
  /** ALLOW_PRIVATE_TARGETS; otherwise private, loopback and link-local destinations are refused (SSRF). */
  allowPrivateTargets: boolean;
  /** A platform SMTP server (SMTP_URL) exists: an email integration may leave smtpHost out. */
  platformSmtp: boolean;
  /** Decrypts a stored secret (the Teams URL is checked in clear). */
  reveal?: (stored: string) => string;
  /** Whether a mailroom of the organization has this id (a Teams channel's mailroom). */
  mailroomExists?: (id: string) => Promise<boolean>;
};

/**
 * The rules of each type on the config as it would be stored. 400 `validation_error` with one
 * entry per field, the first one as the message (like the contract's schema errors).
 */
export async function validateConfig(type: IntegrationType, config: StoredConfig, ctx: ValidationContext) {
  const errors: Array<{ path: string; message: string }> = [];
  if (type === 'webhook') {
    if (!config.webhookUrl) errors.push({ path: 'config.webhookUrl', message: INTEGRATION_MESSAGES.webhookUrl });
    else if (!ctx.allowPrivateTargets && !(await isPublicUrl(config.webhookUrl))) {
      errors.push({ path: 'config.webhookUrl', message: INTEGRATION_MESSAGES.privateAddress });
    }
  }
  if (type === 'email') {
    const host = config.emailSettings?.smtpHost;
    if (!host && !ctx.platformSmtp) {
      errors.push({ path: 'config.emailSettings.smtpHost', message: CONFIG_MESSAGES.smtpHostRequired });
    } else if (host && !ctx.allowPrivateTargets && !(await isPublicHost(host))) {
      errors.push({ path: 'config.emailSettings.smtpHost', message: CONFIG_MESSAGES.smtpHostPrivate });
    }
  }
  if (type === 'sms') {
    const s = config.smsSettings ?? {};
    if (!s.accountSid) errors.push({ path: 'config.smsSettings.accountSid', message: CONFIG_MESSAGES.accountSid });
    if (!s.authToken) errors.push({ path: 'config.smsSettings.authToken', message: CONFIG_MESSAGES.authToken });
    if (!s.fromNumber) errors.push({ path: 'config.smsSettings.fromNumber', message: CONFIG_MESSAGES.fromNumber });
    if (s.baseUrl && !ctx.allowPrivateTargets && !(await isPublicUrl(s.baseUrl))) {
      errors.push({ path: 'config.smsSettings.baseUrl', message: CONFIG_MESSAGES.smsBaseUrlPrivate });
    }
  }
  if (type === 'teams') {
    const t = config.teamsSettings ?? {};
    const url = t.webhookUrl && ctx.reveal ? ctx.reveal(t.webhookUrl) : t.webhookUrl;
    if (!url) errors.push({ path: 'config.teamsSettings.webhookUrl', message: INTEGRATION_MESSAGES.teamsUrl });
    else if (!ctx.allowPrivateTargets && !(await isPublicUrl(url))) {
      errors.push({ path: 'config.teamsSettings.webhookUrl', message: INTEGRATION_MESSAGES.teamsPrivate });
    }
    if (t.mailroomId && !(await ctx.mailroomExists?.(t.mailroomId))) {
      errors.push({ path: 'config.teamsSettings.mailroomId', message: INTEGRATION_MESSAGES.teamsMailroom });
    }
  }
  if (type === 'slack' && !config.slackSettings?.botToken) {
    errors.push({ path: 'config.slackSettings.botToken', message: CONFIG_MESSAGES.botToken });
  }
  if (errors.length) throw new AppError(400, errors[0]!.message, 'validation_error', errors);
}
