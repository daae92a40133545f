import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { integrations, photos } from '../../db/schema';
import { markNotified } from '../mail-items/mail-items.service';
import { createBatcher } from '../../lib/batcher';
import { isPublicUrl } from '../../lib/public-address';
import type { SecretBox, SecretKeys } from '../../lib/secrets';
import { AdminEmailPayload, isAdminEmail, renderAdminEmail } from './admin-messages';
import { addressOf, createEmailTransports, sendEmail, type EmailRoute } from './channels/email';
import { sendSms } from './channels/sms';
import { errorText, failure, type SendResult } from './channels/types';
import { sendTeams } from './channels/teams';
import { sendWebhook } from './channels/webhook';
import { fanOut, hasSmsAccount, type FanOutContext } from './fan-out';
import {
  PICKUP_QR_CID,
  PORTAL_TOKEN_PLACEHOLDER,
  SIGNATURE_CID,
  THUMBNAIL_CID,
  unsubscribeKey,
  unsubscribeToken,
} from './messages';
import { mintPortalLink, portalLinkUrl } from '../recipients/page-links';
import { pickupCodeQrPng } from './pickup-code-image';
import { PLATFORM_SKIP_REASONS, isPlatformMessage, mintLink, withToken } from './platform-messages';
import { queueRepository, type JobRow, type SentOutcome } from './queue.repository';
import { scanReminders } from './reminders';
import { scanTrialEndings } from './trial-endings';
import { createSlackSender } from './slack-send';

export type NotificationsDeps = {
  db: Db;
  config: Config;
  secrets: SecretBox;
  /** The raw secrets key; the unsubscribe-link key is derived from it. */
  secretKeys: SecretKeys;
  log: FastifyBaseLogger;
  /** The base of unsubscribe links and admin email links (Deps.publicUrl). */
  publicUrl: () => string;
  /** Requests the app is serving right now: while there are many, the worker yields to them. */
  requestsInFlight?: () => number;
};

export type WorkerOptions = {
  /** How often an idle worker looks for due jobs. */
  pollMs?: number;
  /** Sends at once. */
  concurrency?: number;
  /** How long a claimed job is the worker's; past it, another worker may take it again. */
  leaseMs?: number;
  /** How often the reminder and trial-ending scans run (0: never; tests call them themselves). */
  reminderEveryMs?: number;
  /** How often jobs of dead workers (lease run out) are put back in the queue. */
  recoverEveryMs?: number;
};

export type NotificationWorker = {
  start: () => void;
  /** Stops claiming and waits for the sends in flight to be recorded. */
  stop: () => Promise<void>;
  /** Sends currently in flight. */
  readonly inFlight: number;
  /** Whether it was started and not stopped. */
  readonly running: boolean;
  /** When its loop last claimed without an error (ms since the epoch; 0: never): readiness reads it. */
  readonly lastPassAt: number;
  /** Resolves when no due job is left and nothing is in flight (tests). */
  idle: (timeoutMs?: number) => Promise<void>;
};

/** With this many requests in flight the front desk is busy: the worker takes only a trickle. */
const BUSY_REQUESTS = 8;
/** Jobs a worker claims per BUSY_POLL_MS while the event loop is busy: messages still flow, slowly. */
const BUSY_TRICKLE = 2;
const BUSY_POLL_MS = 1000;

/** What one attempt came to: the channel's answer, or a reason the message is not sent at all. */
type Outcome = SendResult | { skip: string };

export function createNotifications(deps: NotificationsDeps) {
  const { db, config, secrets, log } = deps;
  const key = unsubscribeKey(deps.secretKeys.current);
  // Links signed before a SECRETS_KEY rotation keep working.
  const unsubscribeKeys = [key, ...deps.secretKeys.previous.map(unsubscribeKey)];
  const unsubscribeUrl = (recipientId: string) =>
    `${deps.publicUrl()}/api/unsubscribe/${unsubscribeToken(key, recipientId)}`;
  const fanOutContext: FanOutContext = {
    db,
    platformEmail: !!config.smtpUrl,
    unsubscribeUrl,
    portalUrl: () => portalLinkUrl(deps.publicUrl(), PORTAL_TOKEN_PLACEHOLDER),
    appUrl: deps.publicUrl,
  };

  const sendSlackJob = createSlackSender({ db, config, secrets });

  /** The workers running in this process (server.ts starts at most one): readiness checks them. */
  const workers = new Set<NotificationWorker>();

  function createWorker(options: WorkerOptions = {}): NotificationWorker {
    const pollMs = options.pollMs ?? 500;
    const concurrency = options.concurrency ?? 20;
    const leaseMs = options.leaseMs ?? 120_000;
    const reminderEveryMs = options.reminderEveryMs ?? 60_000;
    const recoverEveryMs = options.recoverEveryMs ?? 30_000;
    const transports = createEmailTransports(secrets, config.allowPrivateTargets);
    // Outcomes that arrive together are written together: one statement for many sent messages.
    const markSent = createBatcher(
      async (outcomes: SentOutcome[]) => {
        const ours = await queueRepository.markSentMany(db, outcomes);
        return outcomes.map((o) => ours.has(o.id));
      },
      { maxSize: 100, maxInFlight: 2 },
    );
    const inFlight = new Set<Promise<void>>();
    let running = false;
    let loop: Promise<void> | undefined;
    let wake: (() => void) | undefined;
    let lastReminderScan = 0;
    let lastRecover = 0;
    let lastPassAt = 0;

    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });

    async function integrationOf(job: JobRow, type: 'email' | 'sms' | 'webhook' | 'teams') {
      if (!job.integrationId || !job.organizationId) return undefined;
      const [row] = await db
        .select()
        .from(integrations)
        .where(
          and(
            eq(integrations.organizationId, job.organizationId),
            eq(integrations.id, job.integrationId),
            eq(integrations.type, type),
            eq(integrations.isActive, true),
          ),
        );
      return row;
    }

    async function sendEmailJob(job: JobRow): Promise<SendResult> {
      const p = job.payload as {
        subject: string;
        text: string;
        html: string;
        unsubscribeUrl?: string;
        photoId?: string | null;
        fromName?: string;
        pickupCode?: string | null;
        signaturePhotoId?: string | null;
        portalLink?: boolean;
      };
      // A recipient message is always an organization's (the platform's own go to sendPlatformEmailJob).
      const organizationId = job.organizationId;
      if (!organizationId) return failure('A recipient message without its organization', { permanent: true });
      let route: EmailRoute | undefined;
      const integration = await integrationOf(job, 'email');
      if (integration) {
        const host = integration.config.emailSettings?.smtpHost;
        // An organization's SMTP host is the organization's choice, but never an inside address (SSRF).
        if (host && !config.allowPrivateTargets && !(await isPublicUrl(`http://${host}`))) {
          return failure('The SMTP host is not a public address', { permanent: true });
        }
        route = transports.integration(integration, config.mailFrom);
      }
      if (!route && config.smtpUrl) route = transports.platform(config.smtpUrl, config.mailFrom);
      if (!route) return failure('No email server is configured (the email integration was removed or turned off)');
      const attachments = [];
      if (p.photoId) {
        const [photo] = await db
          .select({ thumbnail: photos.thumbnail })
          .from(photos)
          .where(and(eq(photos.organizationId, organizationId), eq(photos.id, p.photoId)));
        if (photo) {
          attachments.push({
            filename: 'photo.jpg',
            content: photo.thumbnail,
            cid: THUMBNAIL_CID,
            contentType: 'image/jpeg',
          });
        }
      }
      if (p.pickupCode) {
        attachments.push({
          filename: 'pickup-code.png',
          content: await pickupCodeQrPng(p.pickupCode),
          cid: PICKUP_QR_CID,
          contentType: 'image/png',
        });
      }
      if (p.signaturePhotoId) {
        const [signature] = await db
          .select({ data: photos.data })
          .from(photos)
          .where(and(eq(photos.organizationId, organizationId), eq(photos.id, p.signaturePhotoId)));
        if (signature) {
          attachments.push({
            filename: 'signature.png',
            content: signature.data,
            cid: SIGNATURE_CID,
            contentType: 'image/png',
          });
        }
      }
      // The recipient's page link (decision 032): a fresh single-use token for this send, so the
      // token exists only in the message itself; a retry mints another.
      let { text, html } = p;
      if (p.portalLink && job.recipientId) {
        const token = await mintPortalLink(db, organizationId, job.recipientId, 'arrival');
        text = text.replaceAll(PORTAL_TOKEN_PLACEHOLDER, token);
        html = html.replaceAll(PORTAL_TOKEN_PLACEHOLDER, token);
      }
      return sendEmail(route, {
        jobId: job.id,
        from: p.fromName ? { name: p.fromName, address: addressOf(route.from) } : route.from,
        to: job.destination!,
        subject: p.subject,
        text,
        html,
        unsubscribeUrl: p.unsubscribeUrl,
        attachments,
      });
    }

    /**
     * An email to an organization's admins about its account: always the platform's server (it is
     * Pigeonhole writing, not the organization), rendered from the facts in its payload.
     */
    async function sendAdminEmailJob(job: JobRow): Promise<SendResult> {
      if (!config.smtpUrl) return failure('No platform email server is configured (SMTP_URL)', { permanent: true });
      const payload = AdminEmailPayload.safeParse(job.payload);
      if (!payload.success) return failure('The admin email job has no usable content', { permanent: true });
      const route = transports.platform(config.smtpUrl, config.mailFrom);
      return sendEmail(route, {
        jobId: job.id,
        from: route.from,
        to: job.destination!,
        ...renderAdminEmail(payload.data, deps.publicUrl()),
      });
    }

    /**
     * One of the platform's own emails (a sign-in link, an account notice, an invitation, a
     * recipient's requested link: decision 054): the platform's server, as the mailer sent them
     * before, its link's token minted now. Without SMTP_URL the message, link included, goes to
     * the server log: how a laptop install resets a password.
     */
    async function sendPlatformEmailJob(job: JobRow): Promise<Outcome> {
      const p = job.payload as { subject: string; text: string; html?: string };
      const link = await mintLink(db, job);
      if ('skip' in link) return link;
      const text = withToken(p.text, link.token);
      const html = p.html === undefined ? undefined : withToken(p.html, link.token);
      if (!config.smtpUrl) {
        log.info(
          { mail: { to: job.destination, subject: p.subject } },
          `Email not sent (no SMTP_URL configured):\n${text}`,
        );
        return { skip: PLATFORM_SKIP_REASONS.noSmtp };
      }
      const route = transports.platform(config.smtpUrl, config.mailFrom);
      return sendEmail(route, {
        jobId: job.id,
        from: route.from,
        to: job.destination!,
        subject: p.subject,
        text,
        html,
      });
    }

    async function sendSmsJob(job: JobRow): Promise<Outcome> {
      const integration = await integrationOf(job, 'sms');
      if (!integration || !hasSmsAccount(integration)) {
        return failure('The SMS integration was removed, turned off or lacks its account details', { permanent: true });
      }
      const s = integration.config.smsSettings!;
      if (s.baseUrl && !config.allowPrivateTargets && !(await isPublicUrl(s.baseUrl))) {
        return failure('The SMS API base URL is not a public address', { permanent: true });
      }
      // A recipient's requested link by SMS carries its token, minted now (decision 054).
      let body = String(job.payload.body);
      if (isPlatformMessage(job)) {
        const link = await mintLink(db, job);
        if ('skip' in link) return link;
        body = withToken(body, link.token);
      }
      return sendSms(
        {
          baseUrl: s.baseUrl || config.smsApiBaseUrl,
          accountSid: s.accountSid!,
          authToken: secrets.decrypt(s.authToken!),
          fromNumber: s.fromNumber!,
        },
        job.destination!,
        body,
        config.allowPrivateTargets,
      );
    }

    async function sendWebhookJob(job: JobRow): Promise<SendResult> {
      const integration = await integrationOf(job, 'webhook');
      if (!integration?.config.webhookUrl) {
        return failure('The webhook integration was removed or turned off', { permanent: true });
      }
      return sendWebhook({
        url: integration.config.webhookUrl,
        id: job.id,
        secret: integration.config.webhookSecret ? secrets.decrypt(integration.config.webhookSecret) : undefined,
        body: String(job.payload.body),
        allowPrivateTargets: config.allowPrivateTargets,
      });
    }

    /** A card to a Teams channel (decision 065): the URL decrypted only for the post. */
    async function sendTeamsJob(job: JobRow): Promise<SendResult> {
      const integration = await integrationOf(job, 'teams');
      const url = integration?.config.teamsSettings?.webhookUrl;
      if (!url) return failure('The Teams integration was removed or turned off', { permanent: true });
      return sendTeams({
        url: secrets.decrypt(url),
        body: String(job.payload.body),
        allowPrivateTargets: config.allowPrivateTargets,
      });
    }

    function send(job: JobRow): Promise<Outcome> {
      switch (job.channel) {
        case 'email':
          if (isAdminEmail(job)) return sendAdminEmailJob(job);
          return isPlatformMessage(job) ? sendPlatformEmailJob(job) : sendEmailJob(job);
        case 'sms':
          return sendSmsJob(job);
        case 'webhook':
          return sendWebhookJob(job);
        case 'teams':
          return sendTeamsJob(job);
        case 'slack':
          return sendSlackJob(job);
        default:
          return Promise.resolve(failure(`Unknown channel ${job.channel}`, { permanent: true }));
      }
    }

    async function record(job: JobRow, result: Outcome) {
      if ('skip' in result) {
        await queueRepository.markSkipped(db, job, result.skip);
        return;
      }
      if (result.ok) {
        const arrival =
          job.organizationId &&
          job.event === 'mail_item.created' &&
          (job.channel === 'email' || job.channel === 'sms') &&
          job.payload.kind === 'arrival' &&
          job.mailItemId;
        if (!arrival) {
          await markSent({ id: job.id, attempts: job.attempts, ...result });
          return;
        }
        // The arrival message is out: the item becomes notified if still pending (the mail-items
        // module's rule and writer), in the transaction that records the message as sent.
        await db.transaction(async (tx) => {
          if (!(await queueRepository.markSent(tx, job, result))) return false;
          return markNotified(tx, job.organizationId!, job.mailItemId!, {
            at: new Date(),
            via: job.channel === 'email' ? 'email' : 'sms',
          });
        });
        return;
      }
      const outcome = await queueRepository.markFailedAttempt(db, job, result);
      log.warn(
        { jobId: job.id, channel: job.channel, attempts: job.attempts, outcome, error: result.error },
        'notification attempt failed',
      );
    }

    async function process(job: JobRow) {
      try {
        if (job.channel === 'event') {
          await fanOut(fanOutContext, job);
          return;
        }
        await record(job, await send(job));
      } catch (err) {
        log.error({ err, jobId: job.id, channel: job.channel }, 'notification job failed');
        await queueRepository
          .markFailedAttempt(db, job, {
            error: errorText(err),
            permanent: false,
            responseStatus: null,
            latencyMs: null,
          })
          .catch(() => undefined);
      }
    }

    async function housekeeping() {
      const now = Date.now();
      if (recoverEveryMs > 0 && now - lastRecover >= recoverEveryMs) {
        lastRecover = now;
        const n = await queueRepository.recoverExpired(db);
        if (n) log.warn({ jobs: n }, 'notification jobs of a stopped worker put back in the queue');
      }
      if (reminderEveryMs > 0 && now - lastReminderScan >= reminderEveryMs) {
        lastReminderScan = now;
        const n = await scanReminders(db);
        if (n) log.info({ reminders: n }, 'reminders queued');
        // Without a platform email server they could not go out: nothing is queued, so they
        // still go once SMTP_URL is set (the dedupe keys remember only what was queued).
        if (config.smtpUrl) {
          const emails = await scanTrialEndings(db);
          if (emails) log.info({ emails }, 'trial-ending emails queued');
        }
      }
    }

    let throttled = false;
    /**
     * Whether the app is busy serving requests. Counted in requests, not event-loop time: the
     * worker's own sending keeps the event loop busy too, and must not slow itself down.
     */
    const busy = () => (deps.requestsInFlight?.() ?? 0) >= BUSY_REQUESTS;

    async function run() {
      while (running) {
        let delay = pollMs;
        try {
          await housekeeping();
          const free = concurrency - inFlight.size;
          // Messages can wait a little; the front desk cannot. While the app is busy serving
          // requests the worker takes only a trickle, and catches up when it calms down.
          throttled = busy();
          const take = throttled ? Math.min(free, BUSY_TRICKLE) : free;
          if (take > 0) {
            const jobs = await queueRepository.claim(db, take, leaseMs);
            for (const job of jobs) {
              const p: Promise<void> = process(job).finally(() => {
                inFlight.delete(p);
                // Claim again once half the slots are free, in one batch rather than one by one.
                if (!throttled && inFlight.size <= concurrency / 2) wake?.();
              });
              inFlight.add(p);
            }
            if (jobs.length === free) delay = 0;
          }
          lastPassAt = Date.now();
        } catch (err) {
          log.error({ err }, 'notification worker could not claim jobs');
        }
        if (!running) break;
        if (throttled) delay = Math.max(delay, BUSY_POLL_MS);
        if (delay === 0 && inFlight.size < concurrency) continue;
        await sleep(delay === 0 ? pollMs * 20 : delay);
      }
    }

    const worker: NotificationWorker = {
      start() {
        if (running) return;
        running = true;
        // Counted from the start: a worker that never completes a pass is stalled a minute later.
        lastPassAt = Date.now();
        workers.add(worker);
        loop = run();
      },
      async stop() {
        running = false;
        workers.delete(worker);
        wake?.();
        await loop;
        await Promise.allSettled([...inFlight]);
        transports.close();
      },
      get inFlight() {
        return inFlight.size;
      },
      get running() {
        return running;
      },
      get lastPassAt() {
        return lastPassAt;
      },
      async idle(timeoutMs = 10_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const { rows } = await db.$client.query<{ n: number }>(
            `select count(*)::int as n from notification_jobs where (status = 'queued' and next_attempt_at <= now()) or status = 'sending'`,
          );
          if (rows[0]!.n === 0 && inFlight.size === 0) return;
          if (Date.now() > deadline) throw new Error(`notification queue not idle within ${timeoutMs} ms`);
          wake?.();
          await new Promise((r) => setTimeout(r, 20));
        }
      },
    };
    return worker;
  }

  return {
    createWorker,
    /** The workers started in this process and not stopped. */
    runningWorkers: (): readonly NotificationWorker[] => [...workers],
    scanReminders: (now?: Date) => scanReminders(db, now),
    scanTrialEndings: (now?: Date) => scanTrialEndings(db, now),
    unsubscribeKey: key,
    unsubscribeKeys,
    unsubscribeUrl,
  };
}

type Notifications = ReturnType<typeof createNotifications>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The notification pipeline of this app (worker factory, reminder and trial-ending scans, unsubscribe links). */
    notifications: Notifications;
  }
}
