import nodemailer, { type Transporter } from 'nodemailer';
import type { IntegrationConfig } from '../../../db/schema';
import { guardedSmtpSocket } from '../../../lib/outbound';
import type { SecretBox } from '../../../lib/secrets';
import { errorText, failure, type SendResult } from './types';

export type EmailMessage = {
  /** Also the Message-ID: `<jobId@pigeonhole>`. */
  jobId: string;
  /** The organization's name shown as the sender's name, at the route's address. */
  from: string | { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  /** Absent: a text-only message (the account notices). */
  html?: string;
  unsubscribeUrl?: string;
  attachments?: Array<{ filename: string; content: Buffer; cid: string; contentType: string }>;
};

/** Where an email goes out: an organization's SMTP integration, or the platform's SMTP_URL. */
export type EmailRoute = { key: string; from: string; transport: () => Transporter };

/** 'Pigeonhole <no-reply@example.com>' -> 'no-reply@example.com'. */
export const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
/** The platform's own server takes more connections than we would open to an organization's. */
const PLATFORM_POOL = { pool: true, maxConnections: 10, maxMessages: 1000 };
const POOL = { pool: true, maxConnections: 5, maxMessages: 500 };

/**
 * Pooled SMTP transports, one per platform URL or integration version (its id and updatedAt), so
 * a worker keeps a few connections open rather than one handshake per message. Closed on stop.
 */
export function createEmailTransports(secrets: SecretBox, allowPrivateTargets: boolean) {
  const transports = new Map<string, Transporter>();
  const get = (key: string, make: () => Transporter) => {
    let transport = transports.get(key);
    if (!transport) {
      transport = make();
      transports.set(key, transport);
    }
    return transport;
  };

  return {
    platform(smtpUrl: string, from: string): EmailRoute {
      return {
        key: 'platform',
        from,
        transport: () =>
          get(`platform:${smtpUrl}`, () => nodemailer.createTransport({ url: smtpUrl, ...PLATFORM_POOL, ...TIMEOUTS })),
      };
    },

    integration(
      integration: { id: string; updatedAt: Date; config: IntegrationConfig },
      fallbackFrom: string,
    ): EmailRoute | undefined {
      const s = integration.config.emailSettings;
      if (!s?.smtpHost) return undefined;
      const port = s.smtpPort ?? 587;
      const key = `integration:${integration.id}:${integration.updatedAt.getTime()}`;
      return {
        key,
        from: s.fromAddress || s.username || fallbackFrom,
        transport: () =>
          get(key, () =>
            nodemailer.createTransport({
              host: s.smtpHost,
              port,
              secure: s.secure ?? port === 465,
              auth: s.username ? { user: s.username, pass: s.password ? secrets.decrypt(s.password) : '' } : undefined,
              ...POOL,
              ...TIMEOUTS,
              // An organization's server: connected to the public address its name resolved to.
              getSocket: guardedSmtpSocket(allowPrivateTargets),
            }),
          ),
      };
    },

    close() {
      for (const t of transports.values()) t.close();
      transports.clear();
    },
  };
}

/** SMTP reply codes that will not change on retry: the mailbox or address is refused (5xx on the envelope). */
function isPermanent(err: { code?: string; responseCode?: number }) {
  return err.code === 'EENVELOPE' && typeof err.responseCode === 'number' && err.responseCode >= 500;
}

export async function sendEmail(route: EmailRoute, message: EmailMessage): Promise<SendResult> {
  const started = performance.now();
  try {
    const info = await route.transport().sendMail({
      from: message.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: `<${message.jobId}@pigeonhole>`,
      attachments: message.attachments,
      // One-click unsubscribe (RFC 8058): mail clients POST to the link; opening it only asks.
      ...(message.unsubscribeUrl
        ? {
            list: { unsubscribe: { url: message.unsubscribeUrl, comment: 'Unsubscribe' } },
            headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
          }
        : {}),
    });
    const latencyMs = Math.round(performance.now() - started);
    const code = /^(\d{3})/.exec(String(info.response ?? ''))?.[1];
    return { ok: true, providerId: info.messageId ?? null, responseStatus: code ? Number(code) : null, latencyMs };
  } catch (err) {
    const e = err as { code?: string; responseCode?: number };
    return failure(`SMTP: ${errorText(err)}`, {
      permanent: isPermanent(e),
      responseStatus: e.responseCode ?? null,
      latencyMs: Math.round(performance.now() - started),
    });
  }
}
