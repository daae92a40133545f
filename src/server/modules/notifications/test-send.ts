import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import { INTEGRATION_MESSAGES, SLACK_MESSAGES } from '../../../contract';
import type { Config } from '../../config';
import type { IntegrationConfig as StoredConfig } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { isPublicUrl } from '../../lib/public-address';
import type { Mailer } from '../../lib/mailer';
import type { SecretBox } from '../../lib/secrets';
import { CONFIG_MESSAGES, isPublicHost } from './integration-config';
import { guardedSmtpSocket } from '../../lib/outbound';
import { sendSms } from './channels/sms';
import { errorText } from './channels/types';
import { postSlackMessage, slackClient } from './channels/slack';
import { sendTeams, teamsMessage } from './channels/teams';
import { sendWebhook } from './channels/webhook';
import { testCard } from './teams-card';
import { checkSlackConfig } from './slack-workspace';

/**
 * An integration's test message (Settings -> Integrations -> Test): sent at once, not through the
 * outbox, because its answer is the point (the admin reads whether the settings work). It lives
 * here with the channels: no module but notifications sends mail or SMS (decision 054).
 */

/** How long a test send may take to connect, greet and answer. */
const TEST_TIMEOUT_MS = 10_000;

export type TestOutcome = {
  ok: boolean;
  message: string;
  responseStatus: number | null;
  latencyMs: number | null;
  /** For the delivery log. */
  destination: string | null;
  providerId?: string;
};

export type TestSendDeps = { config: Config; secrets: SecretBox; mailer: Mailer };

const elapsed = (start: number) => Math.round(performance.now() - start);

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

/** Sends a test email to `to` through the integration's SMTP settings (or the platform's). */
export async function sendTestEmail(
  deps: TestSendDeps,
  stored: StoredConfig,
  to: string,
  organizationName: string,
): Promise<TestOutcome> {
  const e = stored.emailSettings ?? {};
  const mail = {
    to,
    subject: `Pigeonhole test email for ${organizationName}`,
    text: `This is a test email from Pigeonhole. Email notifications for ${organizationName} are set up correctly.`,
  };
  const start = performance.now();
  if (!e.smtpHost) {
    try {
      await deps.mailer.send(mail);
      return {
        ok: true,
        message: `Test email sent to ${to} through the platform's email server`,
        responseStatus: null,
        latencyMs: elapsed(start),
        destination: to,
      };
    } catch (err) {
      return {
        ok: false,
        message: `Could not send: ${errorText(err)}`,
        responseStatus: null,
        latencyMs: elapsed(start),
        destination: to,
      };
    }
  }
  const port = e.smtpPort ?? (e.secure ? 465 : 587);
  const where = `${e.smtpHost}:${port}`;
  if (!deps.config.allowPrivateTargets && !(await isPublicHost(e.smtpHost))) {
    return {
      ok: false,
      message: CONFIG_MESSAGES.smtpHostPrivate,
      responseStatus: null,
      latencyMs: null,
      destination: to,
    };
  }
  const transport = nodemailer.createTransport({
    host: e.smtpHost,
    port,
    secure: e.secure ?? port === 465,
    ...(e.username ? { auth: { user: e.username, pass: e.password ? deps.secrets.decrypt(e.password) : '' } } : {}),
    connectionTimeout: TEST_TIMEOUT_MS,
    greetingTimeout: TEST_TIMEOUT_MS,
    socketTimeout: TEST_TIMEOUT_MS,
    getSocket: guardedSmtpSocket(deps.config.allowPrivateTargets),
  });
  try {
    const info = await transport.sendMail({ from: e.fromAddress || deps.config.mailFrom, ...mail });
    const code = /^(\d{3})/.exec(String(info.response ?? ''))?.[1];
    return {
      ok: true,
      message: `Test email sent to ${to} through ${where}`,
      responseStatus: code ? Number(code) : null,
      latencyMs: elapsed(start),
      destination: to,
      providerId: info.messageId,
    };
  } catch (err) {
    const code = errorCode(err);
    const responseCode = (err as { responseCode?: number }).responseCode ?? null;
    let message: string;
    if (code === 'EAUTH') message = `The SMTP server at ${where} refused the username or password`;
    else if (['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'EPRIVATETARGET'].includes(code ?? '')) {
      message = `Could not connect to the SMTP server at ${where}: ${errorText(err)}`;
    } else message = `The SMTP server at ${where} refused the message: ${errorText(err)}`;
    return { ok: false, message, responseStatus: responseCode, latencyMs: elapsed(start), destination: to };
  } finally {
    transport.close();
  }
}

/** Sends a test SMS to `to` through the Twilio Messages API (or a compatible base URL). */
export async function sendTestSms(deps: TestSendDeps, stored: StoredConfig, to: string): Promise<TestOutcome> {
  const s = stored.smsSettings ?? {};
  const baseUrl = (s.baseUrl || deps.config.smsApiBaseUrl).replace(/\/+$/, '');
  if (!s.accountSid || !s.authToken || !s.fromNumber) {
    return {
      ok: false,
      message: 'The SMS settings are incomplete',
      responseStatus: null,
      latencyMs: null,
      destination: to,
    };
  }
  if (!deps.config.allowPrivateTargets && !(await isPublicUrl(baseUrl))) {
    return {
      ok: false,
      message: CONFIG_MESSAGES.smsBaseUrlPrivate,
      responseStatus: null,
      latencyMs: null,
      destination: to,
    };
  }
  const account = {
    baseUrl,
    accountSid: s.accountSid,
    authToken: deps.secrets.decrypt(s.authToken),
    fromNumber: s.fromNumber,
  };
  // The same call the notification worker makes, so a passing test means messages will go out.
  const result = await sendSms(
    account,
    to,
    'Pigeonhole test message: SMS notifications work.',
    deps.config.allowPrivateTargets,
  );
  return result.ok
    ? {
        ok: true,
        message: `Test SMS sent to ${to}`,
        responseStatus: result.responseStatus,
        latencyMs: result.latencyMs,
        destination: to,
        providerId: result.providerId ?? undefined,
      }
    : {
        ok: false,
        message: result.error,
        responseStatus: result.responseStatus,
        latencyMs: result.latencyMs,
        destination: to,
      };
}

/** Posts a signed 'test' event to the webhook URL. */
export async function sendTestWebhook(
  deps: TestSendDeps,
  stored: StoredConfig,
  ids: { integrationId: string; organizationId: string },
): Promise<TestOutcome> {
  const url = stored.webhookUrl;
  if (!url)
    return {
      ok: false,
      message: INTEGRATION_MESSAGES.webhookUrl,
      responseStatus: null,
      latencyMs: null,
      destination: null,
    };
  if (!stored.webhookSecret) {
    return {
      ok: false,
      message: 'The webhook has no signing secret; rotate it',
      responseStatus: null,
      latencyMs: null,
      destination: url,
    };
  }
  if (!deps.config.allowPrivateTargets && !(await isPublicUrl(url))) {
    return {
      ok: false,
      message: INTEGRATION_MESSAGES.privateAddress,
      responseStatus: null,
      latencyMs: null,
      destination: url,
    };
  }
  const id = `msg_${crypto.randomUUID()}`;
  const now = new Date();
  const body = JSON.stringify({
    type: 'test',
    timestamp: now.toISOString(),
    data: { ...ids, message: 'This is a test event from Pigeonhole.' },
  });
  // Signed and sent exactly as the notification worker sends events (same headers, timeout, no redirects).
  const result = await sendWebhook({
    url,
    id,
    secret: deps.secrets.decrypt(stored.webhookSecret),
    body,
    allowPrivateTargets: deps.config.allowPrivateTargets,
  });
  return result.ok
    ? {
        ok: true,
        message: `The webhook answered ${result.responseStatus}`,
        responseStatus: result.responseStatus,
        latencyMs: result.latencyMs,
        destination: url,
        providerId: id,
      }
    : {
        ok: false,
        message: result.error,
        responseStatus: result.responseStatus,
        latencyMs: result.latencyMs,
        destination: url,
      };
}

/** Posts a test card to the Teams channel, exactly as the worker posts arrivals (same guard, no redirects). */
export async function sendTestTeams(
  deps: TestSendDeps,
  stored: StoredConfig,
  channelName: string,
): Promise<TestOutcome> {
  const encrypted = stored.teamsSettings?.webhookUrl;
  if (!encrypted) {
    return {
      ok: false,
      message: INTEGRATION_MESSAGES.teamsUrl,
      responseStatus: null,
      latencyMs: null,
      destination: null,
    };
  }
  const card = testCard();
  const result = await sendTeams({
    url: deps.secrets.decrypt(encrypted),
    body: JSON.stringify(teamsMessage(card)),
    allowPrivateTargets: deps.config.allowPrivateTargets,
  });
  return result.ok
    ? {
        ok: true,
        message: `Teams answered ${result.responseStatus}: look for the test card in the channel`,
        responseStatus: result.responseStatus,
        latencyMs: result.latencyMs,
        destination: channelName,
      }
    : {
        ok: false,
        message: result.error,
        responseStatus: result.responseStatus,
        latencyMs: result.latencyMs,
        destination: channelName,
      };
}

/**
 * Slack's test (decision 064): with a staff channel, a message posted there; without one, the
 * token checked with auth.test.
 */
export async function sendTestSlack(deps: TestSendDeps, stored: StoredConfig): Promise<TestOutcome> {
  const { config, secrets } = deps;
  const k = stored.slackSettings ?? {};
  const started = performance.now();
  if (!k.botToken)
    return {
      ok: false,
      message: SLACK_MESSAGES.tokenRequired,
      responseStatus: null,
      latencyMs: null,
      destination: null,
    };
  if (!k.staffChannelId) {
    try {
      await checkSlackConfig(config.slackApiUrl, secrets, stored);
      return {
        ok: true,
        message: `Connected to ${k.teamName ?? 'Slack'} (pick a staff channel to receive a test message)`,
        responseStatus: 200,
        latencyMs: Math.round(performance.now() - started),
        destination: k.teamName ?? null,
      };
    } catch (err) {
      const message = err instanceof AppError ? err.message : SLACK_MESSAGES.unreachable;
      return {
        ok: false,
        message,
        responseStatus: null,
        latencyMs: Math.round(performance.now() - started),
        destination: null,
      };
    }
  }
  const result = await postSlackMessage(
    slackClient(config.slackApiUrl, secrets.decrypt(k.botToken)),
    k.staffChannelId,
    {
      text: `Test message from Pigeonhole: staff messages of this organization come to this channel.`,
    },
  );
  const destination = k.staffChannelName ? `#${k.staffChannelName}` : k.staffChannelId;
  return result.ok
    ? {
        ok: true,
        message: `Test message posted to ${destination}`,
        responseStatus: 200,
        latencyMs: result.latencyMs,
        providerId: result.providerId ?? undefined,
        destination,
      }
    : {
        ok: false,
        message: result.error,
        responseStatus: result.responseStatus,
        latencyMs: result.latencyMs,
        destination,
      };
}
