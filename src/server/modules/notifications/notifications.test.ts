import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import {
  integrations,
  mailItemHistory,
  mailItems,
  mailroomLocations,
  mailrooms,
  notificationJobs,
  organizations,
  organizationSettings,
  recipients,
  type IntegrationConfig,
} from '../../db/schema';
import { createSecretBox } from '../../lib/secrets';
import { handedOver } from '../../test/hand-over';
import { Client, createTestApp, postRaw, TEST_SECRETS_KEY, type TestApp } from '../../test/harness';
import { testWorkers } from '../../test/notification-workers';
import { createTestAppWithSmtp, type TestSmtp } from '../../test/smtp';
import { backoffMs } from './queue.repository';
import { SMS_SEGMENT, unsubscribeKey, unsubscribeToken, verifyUnsubscribeToken } from './messages';
import { deleteOldNotificationJobs } from './retention';
import { SKIP_REASONS } from './fan-out';

const secrets = createSecretBox(Buffer.from(TEST_SECRETS_KEY, 'base64'));
let smtp: TestSmtp;
let t: TestApp;

beforeAll(async () => {
  ({ t, smtp } = await createTestAppWithSmtp());
});

/** Workers polling fast, stopped at the end of the test file whatever happens. */
const workers = testWorkers();
const startWorker = (app: TestApp = t) => workers.start(app);
/** Runs a worker until nothing is due, then stops it. */
const drain = (app: TestApp = t) => workers.drain(app);

let seq = 0;
/** An organization with an admin, a recipient with an email, a mailroom and a shelf. */
async function desk(app: TestApp = t, recipient: Partial<typeof recipients.$inferInsert> = {}) {
  const admin = new Client(app);
  await admin.register();
  const name = `Harbor View ${++seq}`;
  const org = { ...(await admin.createOrganization(name)), name };
  const [r] = await app.db
    .insert(recipients)
    .values({
      organizationId: org.id,
      firstName: 'Amara',
      lastName: 'Okafor',
      email: `amara${seq}@example.com`,
      unit: '101',
      ...recipient,
    })
    .returning();
  const [room] = await app.db.insert(mailrooms).values({ organizationId: org.id, name: 'Lobby' }).returning();
  const [shelf] = await app.db
    .insert(mailroomLocations)
    .values({ organizationId: org.id, mailroomId: room!.id, name: 'Shelf A', type: 'shelf' })
    .returning();
  return { admin, org, recipient: r!, room: room!, shelf: shelf! };
}

const pngDataUrl = async () =>
  'data:image/png;base64,' +
  (
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366ff' } })
      .png()
      .toBuffer()
  ).toString('base64');

/** Logs an item through the API, as the front desk does. */
async function logItem(admin: Client, body: Record<string, unknown>) {
  const res = await admin.post('/api/mail-items', { type: 'package', ...body });
  expect(res.statusCode).toBe(201);
  const item = res.json<{ id: string; organizationId: string; recipientId: string | null }>();
  await ensureEvent(t, item, 'mail_item.created');
  return item;
}

/** The outbox row the mail-items service writes with the change (inserted here if that code is not in place). */
async function ensureEvent(
  app: TestApp,
  item: { id: string; organizationId: string; recipientId: string | null },
  event: string,
  payload: Record<string, unknown> = {},
) {
  const existing = await app.db
    .select()
    .from(notificationJobs)
    .where(
      and(
        eq(notificationJobs.mailItemId, item.id),
        eq(notificationJobs.channel, 'event'),
        eq(notificationJobs.event, event),
      ),
    );
  if (existing.length) return;
  await app.db.insert(notificationJobs).values({
    organizationId: item.organizationId,
    channel: 'event',
    event,
    mailItemId: item.id,
    recipientId: item.recipientId,
    payload,
  });
}

const messagesOf = (mailItemId: string) =>
  t.db
    .select()
    .from(notificationJobs)
    .where(and(eq(notificationJobs.mailItemId, mailItemId), sql`${notificationJobs.channel} <> 'event'`))
    .orderBy(notificationJobs.createdAt);

async function addIntegration(organizationId: string, type: 'email' | 'sms' | 'webhook', config: IntegrationConfig) {
  const [row] = await t.db
    .insert(integrations)
    .values({ organizationId, name: `${type} integration`, type, config })
    .returning();
  return row!;
}

type Received = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };
/** A local HTTP receiver whose answers the test scripts (status, delay). */
async function startReceiver(
  answer: (n: number, req: Received) => { status: number; body?: string; delayMs?: number },
) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const r = { method: req.method!, url: req.url!, headers: req.headers, body };
      received.push(r);
      const a = answer(received.length, r);
      setTimeout(() => {
        res.writeHead(a.status, { 'content-type': 'application/json' });
        res.end(a.body ?? '{}');
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url, received };
}

const whsec = () => `whsec_${crypto.randomBytes(24).toString('base64')}`;

describe('arrival email and auto-notify', () => {
  it('sends both parts with type, sender, courier, location, pickup note, thumbnail and unsubscribe link, then marks the item notified', async () => {
    const { admin, org, recipient, shelf } = await desk();
    await t.db
      .update(organizationSettings)
      .set({ pickupInstructions: 'Front desk, 8am to 8pm daily' })
      .where(eq(organizationSettings.organizationId, org.id));
    const item = await logItem(admin, {
      recipientId: recipient.id,
      locationId: shelf.id,
      sender: 'Amazon',
      courierCompany: 'UPS',
      trackingNumber: '1Z999AA10123456784',
      photoData: await pngDataUrl(),
    });
    await drain();

    const mail = await smtp.waitFor(recipient.email!);
    expect(mail.subject).toBe(`Your package has arrived at ${org.name}`);
    expect(mail.raw).toContain(`From: ${org.name} <no-reply@pigeonhole.local>`);
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/i);
    expect(mail.raw).toMatch(/Content-Type: text\/html/i);
    for (const text of ['Type: Package', 'Sender: Amazon', 'Courier: UPS', 'Where: Shelf A, Lobby']) {
      expect(mail.text).toContain(text);
    }
    expect(mail.text).toContain('Front desk, 8am to 8pm daily');
    expect(mail.raw).toMatch(/Content-ID: <thumbnail@pigeonhole>/i);
    expect(mail.text).toContain('cid:thumbnail@pigeonhole');
    expect(mail.text).toMatch(/http:\/\/pigeonhole\.test\/api\/unsubscribe\/[0-9a-f-]{36}\.[\w-]+/);

    const [message] = await messagesOf(item.id);
    expect(message).toMatchObject({ channel: 'email', status: 'sent', attempts: 1, destination: recipient.email });
    expect(mail.raw).toContain(`Message-ID: <${message!.id}@pigeonhole>`);
    expect(message!.providerId).toBe(`<${message!.id}@pigeonhole>`);
    expect(message!.latencyMs).not.toBeNull();

    const [row] = await t.db.select().from(mailItems).where(eq(mailItems.id, item.id));
    expect(row!.status).toBe('notified');
    expect(row!.notifiedAt).not.toBeNull();
    const history = await t.db.select().from(mailItemHistory).where(eq(mailItemHistory.mailItemId, item.id));
    expect(history.filter((h) => h.action === 'notified')).toEqual([
      expect.objectContaining({
        previousStatus: 'pending',
        newStatus: 'notified',
        notes: 'Notified by email',
        performedBy: null,
      }),
    ]);
    const events = await t.db
      .select()
      .from(notificationJobs)
      .where(and(eq(notificationJobs.mailItemId, item.id), eq(notificationJobs.event, 'mail_item.notified')));
    expect(events).toEqual([
      expect.objectContaining({ channel: 'event', payload: { source: 'auto' }, status: 'done' }),
    ]);
    // The auto 'notified' event sends no second arrival message.
    expect(smtp.received.filter((m) => m.to.includes(recipient.email!))).toHaveLength(1);

    const res = await admin.get(`/api/mail-items/${item.id}/notifications`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      expect.objectContaining({
        channel: 'email',
        event: 'mail_item.created',
        status: 'sent',
        destination: recipient.email,
      }),
    ]);
  });

  it('sends nothing on intake when autoNotifyRecipients is off, and the arrival on Mark Notified', async () => {
    const { admin, org, recipient } = await desk();
    await t.db
      .update(organizationSettings)
      .set({ autoNotifyRecipients: false })
      .where(eq(organizationSettings.organizationId, org.id));
    const item = await logItem(admin, { recipientId: recipient.id });
    await drain();
    expect(await messagesOf(item.id)).toEqual([]);
    const [row] = await t.db.select().from(mailItems).where(eq(mailItems.id, item.id));
    expect(row!.status).toBe('pending');

    expect((await admin.put(`/api/mail-items/${item.id}`, { status: 'notified' })).statusCode).toBe(200);
    await ensureEvent(t, item, 'mail_item.notified');
    await drain();
    const mail = await smtp.waitFor(recipient.email!);
    expect(mail.subject).toMatch(/^Your package has arrived/);
    expect(await messagesOf(item.id)).toEqual([
      expect.objectContaining({ event: 'mail_item.notified', status: 'sent' }),
    ]);
  });

  it('sends one arrival message when Mark Notified is clicked before the intake message went out', async () => {
    const { admin, recipient } = await desk();
    const item = await logItem(admin, { recipientId: recipient.id });
    expect((await admin.put(`/api/mail-items/${item.id}`, { status: 'notified' })).statusCode).toBe(200);
    await ensureEvent(t, item, 'mail_item.notified');
    await drain();
    expect(smtp.received.filter((m) => m.to.includes(recipient.email!))).toHaveLength(1);
    const messages = await messagesOf(item.id);
    expect(messages.map((m) => m.status).sort()).toEqual(['sent', 'skipped']);
    expect(messages.find((m) => m.status === 'skipped')!.skipReason).toBe(
      'The recipient was already sent the arrival message for this item',
    );
  });

  it('sends a receipt on delivery naming the collector and the time', async () => {
    const { admin, org, recipient } = await desk();
    await t.db.update(organizations).set({ timezone: 'America/New_York' }).where(eq(organizations.id, org.id));
    const item = await logItem(admin, { recipientId: recipient.id, sender: 'Zara' });
    await drain();
    await handedOver(admin, item.id, { collectorName: 'Ada Lovelace' });
    await ensureEvent(t, item, 'mail_item.delivered');
    await drain();
    const receipt = smtp.received.find((m) => m.to.includes(recipient.email!) && m.subject.includes('picked up'));
    expect(receipt).toBeDefined();
    expect(receipt!.text).toContain('Collected by: Ada Lovelace');
    expect(receipt!.text).toMatch(/Collected at: \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}/);
  });

  it('sends one receipt per hand-over, listing its items, not one an item (decision 053)', async () => {
    const { admin, recipient } = await desk();
    const parcel = await logItem(admin, { recipientId: recipient.id, sender: 'Zara', trackingNumber: 'ONE-RCPT-1' });
    const letter = await logItem(admin, { recipientId: recipient.id, sender: 'City Hall' });
    await drain();
    const before = smtp.received.length;
    await handedOver(admin, [parcel.id, letter.id], { collectorName: 'Ada Lovelace' });
    await ensureEvent(t, parcel, 'mail_item.delivered');
    await ensureEvent(t, letter, 'mail_item.delivered');
    await drain();
    const receipts = smtp.received
      .slice(before)
      .filter((m) => m.to.includes(recipient.email!) && m.subject.includes('picked up'));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.subject).toMatch(/^Your 2 items were picked up at /);
    expect(receipts[0]!.text).toContain('Package from Zara (ONE-RCPT-1)');
    expect(receipts[0]!.text).toContain('from City Hall');
    expect(receipts[0]!.text).toContain('Collected by: Ada Lovelace');
    // The other item's event says where its receipt went: one message row per hand-over per channel.
    const rows = [...(await messagesOf(parcel.id)), ...(await messagesOf(letter.id))].filter(
      (m) => m.channel === 'email' && m.event === 'mail_item.delivered',
    );
    expect(rows.map((m) => m.status).sort()).toEqual(['sent', 'skipped']);
    expect(rows.find((m) => m.status === 'skipped')!.skipReason).toBe(
      'Listed in the one receipt of its hand-over, sent with another of its items',
    );
  });
});

describe('skipped messages say why', () => {
  it('records a recipient without email, an item without recipient and an unsubscribed recipient as skipped', async () => {
    const noEmail = await desk(t, { email: null });
    const a = await logItem(noEmail.admin, { recipientId: noEmail.recipient.id });
    const b = await logItem(noEmail.admin, {});
    const optedOut = await desk(t, { notificationsOptOutAt: new Date() });
    const c = await logItem(optedOut.admin, { recipientId: optedOut.recipient.id });
    await drain();
    expect(await messagesOf(a.id)).toEqual([
      expect.objectContaining({ status: 'skipped', skipReason: 'The recipient has no email address' }),
    ]);
    expect(await messagesOf(b.id)).toEqual([
      expect.objectContaining({ status: 'skipped', skipReason: 'The item has no recipient' }),
    ]);
    expect(await messagesOf(c.id)).toEqual([
      expect.objectContaining({ status: 'skipped', skipReason: 'The recipient has unsubscribed from notifications' }),
    ]);
    const res = await noEmail.admin.get(`/api/mail-items/${a.id}/notifications`);
    expect(res.json()).toEqual([
      expect.objectContaining({
        status: 'skipped',
        skipReason: 'The recipient has no email address',
        channel: 'email',
      }),
    ]);
    // Skipped items are not auto-notified: nothing was accepted.
    const [row] = await t.db.select().from(mailItems).where(eq(mailItems.id, a.id));
    expect(row!.status).toBe('pending');
  });
});

describe('unsubscribe link', () => {
  it('asks on opening, opts out on the button or one-click POST, and refuses a forged token', async () => {
    const { admin, recipient } = await desk();
    await logItem(admin, { recipientId: recipient.id });
    await drain();
    const mail = await smtp.waitFor(recipient.email!);
    const link = /http:\/\/pigeonhole\.test(\/api\/unsubscribe\/[0-9a-f-]{36}\.[\w-]+)/.exec(mail.text)![1]!;
    const optOut = async () =>
      (await t.db.select().from(recipients).where(eq(recipients.id, recipient.id)))[0]!.notificationsOptOutAt;
    // Opening the link (as a mail scanner would) only asks.
    const anonymous = new Client(t);
    const asked = await anonymous.get(link);
    expect(asked.statusCode).toBe(200);
    expect(asked.headers['content-type']).toMatch(/text\/html/);
    expect(asked.body).toContain('<form method="post">');
    expect(await optOut()).toBeNull();
    // A mail client's one-click unsubscribe (RFC 8058) posts a form body.
    const res = await postRaw(t, link, 'application/x-www-form-urlencoded', 'List-Unsubscribe=One-Click');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('You are unsubscribed');
    expect(await optOut()).not.toBeNull();

    const forged = `/api/unsubscribe/${recipient.id}.${'A'.repeat(32)}`;
    expect((await anonymous.get(forged)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: forged })).statusCode).toBe(404);
  });

  it('keeps links signed with a previous SECRETS_KEY working after a rotation', () => {
    const [oldKey, newKey, otherKey] = [1, 2, 3].map((n) => unsubscribeKey(Buffer.alloc(32, n))) as [
      Buffer,
      Buffer,
      Buffer,
    ];
    const id = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
    const signedBefore = unsubscribeToken(oldKey, id);
    expect(verifyUnsubscribeToken([newKey, oldKey], signedBefore)).toBe(id);
    expect(verifyUnsubscribeToken([newKey], signedBefore)).toBeUndefined();
    expect(verifyUnsubscribeToken([newKey, otherKey], signedBefore)).toBeUndefined();
  });
});

describe('SMS through the Twilio Messages API', () => {
  it('posts To, From and a one-segment Body with basic auth, and records the message SID', async () => {
    const receiver = await startReceiver(() => ({
      status: 201,
      body: JSON.stringify({ sid: 'SM123', status: 'queued' }),
    }));
    const { admin, org, recipient } = await desk(t, { email: null, phone: '+15551234567' });
    await addIntegration(org.id, 'sms', {
      smsSettings: {
        accountSid: 'AC0001',
        authToken: secrets.encrypt('tok-secret'),
        fromNumber: '+15550000000',
        baseUrl: receiver.url,
      },
    });
    const item = await logItem(admin, {
      recipientId: recipient.id,
      sender: 'A very long sender name that goes on and on for quite a while, really',
    });
    await drain();
    expect(receiver.received).toHaveLength(1);
    const req = receiver.received[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/2010-04-01/Accounts/AC0001/Messages.json');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('AC0001:tok-secret').toString('base64')}`);
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(req.body);
    expect(form.get('To')).toBe('+15551234567');
    expect(form.get('From')).toBe('+15550000000');
    expect(form.get('Body')).toMatch(/arrived for you/);
    expect(form.get('Body')!.length).toBeLessThanOrEqual(SMS_SEGMENT);
    expect(await messagesOf(item.id)).toEqual([
      expect.objectContaining({ channel: 'sms', status: 'sent', providerId: 'SM123', responseStatus: 201 }),
    ]);
    const [row] = await t.db.select().from(mailItems).where(eq(mailItems.id, item.id));
    expect(row!.status).toBe('notified');
  });

  it('fails at once on a 4xx other than 429 (no retry), and retries a 500', async () => {
    const receiver = await startReceiver((_n, req) =>
      req.body.includes('%2B1555000400')
        ? { status: 400, body: JSON.stringify({ code: 21211, message: "The 'To' number is not valid." }) }
        : { status: 500 },
    );
    const bad = await desk(t, { email: null, phone: '+1555000400' });
    const down = await desk(t, { email: null, phone: '+1555000500' });
    for (const d of [bad, down]) {
      await addIntegration(d.org.id, 'sms', {
        smsSettings: { accountSid: 'AC1', authToken: secrets.encrypt('x'), fromNumber: '+1555', baseUrl: receiver.url },
      });
    }
    const a = await logItem(bad.admin, { recipientId: bad.recipient.id });
    const b = await logItem(down.admin, { recipientId: down.recipient.id });
    await drain();
    expect(await messagesOf(a.id)).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 1,
        responseStatus: 400,
        lastError: "SMS provider answered 400: The 'To' number is not valid.",
      }),
    ]);
    const [retrying] = await messagesOf(b.id);
    expect(retrying).toMatchObject({ status: 'queued', attempts: 1, responseStatus: 500 });
    expect(retrying!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
  });
});

describe("the recipient's choice of channel (decision 032)", () => {
  it('sends on the chosen channel only, with a skip reason for the other; a choice that cannot reach them falls back', async () => {
    const receiver = await startReceiver(() => ({ status: 201, body: JSON.stringify({ sid: 'SM9' }) }));
    const smsOnly = await desk(t, { phone: '+15557770001', notifyChannels: ['sms'] });
    const emailOnly = await desk(t, { phone: '+15557770002', notifyChannels: ['email'] });
    const noPhone = await desk(t, { phone: null, notifyChannels: ['sms'] });
    for (const d of [smsOnly, emailOnly, noPhone]) {
      await addIntegration(d.org.id, 'sms', {
        smsSettings: { accountSid: 'AC1', authToken: secrets.encrypt('x'), fromNumber: '+1555', baseUrl: receiver.url },
      });
    }
    const a = await logItem(smsOnly.admin, { recipientId: smsOnly.recipient.id });
    const b = await logItem(emailOnly.admin, { recipientId: emailOnly.recipient.id });
    const c = await logItem(noPhone.admin, { recipientId: noPhone.recipient.id });
    await drain();
    const shape = async (id: string) =>
      (await messagesOf(id))
        .map((m) => ({ channel: m.channel, status: m.status, skipReason: m.skipReason }))
        .sort((x, y) => x.channel.localeCompare(y.channel));
    expect(await shape(a.id)).toEqual([
      { channel: 'email', status: 'skipped', skipReason: SKIP_REASONS.prefersSms },
      { channel: 'sms', status: 'sent', skipReason: null },
    ]);
    expect(await shape(b.id)).toEqual([
      { channel: 'email', status: 'sent', skipReason: null },
      { channel: 'sms', status: 'skipped', skipReason: SKIP_REASONS.prefersEmail },
    ]);
    // SMS only, but no phone: email is the one way to reach them.
    expect(await shape(c.id)).toEqual([{ channel: 'email', status: 'sent', skipReason: null }]);
  });
});

describe('webhooks', () => {
  it('signs per Standard Webhooks (verified by the standardwebhooks library) with the job id as webhook-id', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    const { admin, org, recipient } = await desk();
    const secret = whsec();
    const hook = await addIntegration(org.id, 'webhook', {
      webhookUrl: `${receiver.url}/hooks`,
      webhookSecret: secrets.encrypt(secret),
      webhookEvents: ['mail_item.created', 'mail_item.deleted'],
    });
    const item = await logItem(admin, { recipientId: recipient.id, sender: 'DHL' });
    await drain();
    expect(receiver.received).toHaveLength(1);
    const req = receiver.received[0]!;
    const verified = new Webhook(secret).verify(req.body, req.headers as Record<string, string>) as {
      type: string;
      timestamp: string;
      data: { mailItem: { id: string; sender: string } };
    };
    expect(verified.type).toBe('mail_item.created');
    expect(verified.data.mailItem).toMatchObject({ id: item.id, sender: 'DHL' });
    const webhookJob = (await messagesOf(item.id)).find((m) => m.channel === 'webhook')!;
    expect(req.headers['webhook-id']).toBe(webhookJob.id);
    expect(webhookJob).toMatchObject({ status: 'sent', integrationId: hook.id, responseStatus: 200 });
    // A forged signature does not verify.
    expect(() => new Webhook(whsec()).verify(req.body, req.headers as Record<string, string>)).toThrow();

    // The auto 'notified' event is not subscribed; deleted is, with the item as it was.
    expect((await admin.delete(`/api/mail-items/${item.id}`)).statusCode).toBe(204);
    await ensureEvent(t, item, 'mail_item.deleted', { item: { id: item.id } });
    await drain();
    expect(receiver.received).toHaveLength(2);
    const deleted = JSON.parse(receiver.received[1]!.body) as { type: string; data: { mailItem: { id: string } } };
    expect(deleted).toMatchObject({ type: 'mail_item.deleted', data: { mailItem: { id: item.id } } });
    // A deleted item's messages stay readable.
    expect((await admin.get(`/api/mail-items/${item.id}/notifications`)).statusCode).toBe(200);
  });

  it('retries after the receiver fails twice, with the same webhook-id, then records it sent', async () => {
    const receiver = await startReceiver((n) => ({ status: n <= 2 ? 500 : 204 }));
    const { admin, org } = await desk();
    const secret = whsec();
    await addIntegration(org.id, 'webhook', { webhookUrl: receiver.url, webhookSecret: secrets.encrypt(secret) });
    const item = await logItem(admin, {});
    for (let attempt = 1; attempt <= 3; attempt++) {
      await drain();
      const [job] = (await messagesOf(item.id)).filter((m) => m.channel === 'webhook');
      expect(job!.attempts).toBe(attempt);
      if (attempt < 3) {
        expect(job).toMatchObject({
          status: 'queued',
          responseStatus: 500,
          lastError: 'Webhook receiver answered 500',
        });
        // Time travel instead of waiting for the backoff.
        await t.db
          .update(notificationJobs)
          .set({ nextAttemptAt: new Date(Date.now() - 1000) })
          .where(eq(notificationJobs.id, job!.id));
      } else {
        expect(job).toMatchObject({ status: 'sent', responseStatus: 204, lastError: null });
      }
    }
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    // Every attempt is signed afresh (its own timestamp) and verifies with the receiver's library.
    for (const req of receiver.received) {
      expect(new Webhook(secret).verify(req.body, req.headers as Record<string, string>)).toMatchObject({
        type: 'mail_item.created',
        data: { mailItem: { id: item.id } },
      });
    }
  });

  it('marks the message failed after its last attempt', async () => {
    const receiver = await startReceiver(() => ({ status: 503 }));
    const { admin, org } = await desk();
    await addIntegration(org.id, 'webhook', { webhookUrl: receiver.url, webhookSecret: secrets.encrypt(whsec()) });
    const item = await logItem(admin, {});
    await drain();
    const [job] = (await messagesOf(item.id)).filter((m) => m.channel === 'webhook');
    await t.db
      .update(notificationJobs)
      .set({ attempts: 12, nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(notificationJobs.id, job!.id));
    await drain();
    const [after] = (await messagesOf(item.id)).filter((m) => m.channel === 'webhook');
    expect(after).toMatchObject({ status: 'failed', attempts: 13, responseStatus: 503 });
    const res = await admin.get(`/api/mail-items/${item.id}/notifications`);
    expect(res.json()).toContainEqual(expect.objectContaining({ channel: 'webhook', status: 'failed', attempts: 13 }));
  });

  it('sends no duplicate when a worker is stopped mid-send and a new one starts', async () => {
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 600 }));
    const { admin, org } = await desk();
    await addIntegration(org.id, 'webhook', { webhookUrl: receiver.url, webhookSecret: secrets.encrypt(whsec()) });
    // The registration's verification email goes through the outbox too (decision 054): sent
    // first, so the webhook is the one message in flight when the worker stops.
    await drain();
    const item = await logItem(admin, {});
    const first = startWorker();
    const deadline = Date.now() + 5000;
    while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(first.inFlight).toBe(1);
    await first.stop(); // waits for the answer and records it
    const [job] = (await messagesOf(item.id)).filter((m) => m.channel === 'webhook');
    expect(job).toMatchObject({ status: 'sent', attempts: 1 });
    await drain();
    expect(receiver.received).toHaveLength(1);
  });

  it('puts back a job whose worker died mid-send (lease expired) and sends it once more (at-least-once)', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    const { admin, org } = await desk();
    await addIntegration(org.id, 'webhook', { webhookUrl: receiver.url, webhookSecret: secrets.encrypt(whsec()) });
    const item = await logItem(admin, {});
    const worker = workers.create(t, { recoverEveryMs: 1 });
    // A dead worker's claim: 'sending', attempt 1, lease already over.
    await drain();
    const [job] = (await messagesOf(item.id)).filter((m) => m.channel === 'webhook');
    await t.db
      .update(notificationJobs)
      .set({ status: 'sending', lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(notificationJobs.id, job!.id));
    worker.start();
    await worker.idle();
    await worker.stop();
    const [after] = (await messagesOf(item.id)).filter((m) => m.channel === 'webhook');
    expect(after).toMatchObject({ status: 'sent', attempts: 2 });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([job!.id, job!.id]);
  });
});

describe('server-side request forgery', () => {
  it('refuses a loopback webhook URL at send time (the guard is on by default): failed at once, nothing sent', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    const prod = await createTestApp({ NODE_ENV: 'development', ALLOW_PRIVATE_TARGETS: 'false', SMTP_URL: smtp.url });
    const { admin, org } = await desk(prod);
    await prod.db.insert(integrations).values({
      organizationId: org.id,
      name: 'inside',
      type: 'webhook',
      config: { webhookUrl: `${receiver.url}/internal`, webhookSecret: secrets.encrypt(whsec()) },
    });
    const res = await admin.post('/api/mail-items', { type: 'package' });
    expect(res.statusCode).toBe(201);
    const item = res.json<{ id: string; organizationId: string; recipientId: string | null }>();
    await ensureEvent(prod, item, 'mail_item.created');
    await drain(prod);
    const [job] = await prod.db
      .select()
      .from(notificationJobs)
      .where(and(eq(notificationJobs.mailItemId, item.id), eq(notificationJobs.channel, 'webhook')));
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job!.lastError).toMatch(/not a public address/);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('several workers at once', () => {
  it('send every message exactly once', async () => {
    const { org } = await desk();
    const n = 120;
    await t.db.insert(notificationJobs).values(
      Array.from({ length: n }, (_, i) => ({
        organizationId: org.id,
        channel: 'email',
        event: 'test',
        destination: `many${i}@parallel.test`,
        payload: { subject: `Message ${i}`, text: 'Hello', html: '<p>Hello</p>' },
      })),
    );
    const started = [startWorker(), startWorker(), startWorker()];
    await started[0]!.idle();
    await Promise.all(started.map((w) => w.stop()));
    const rows = await t.db
      .select()
      .from(notificationJobs)
      .where(and(eq(notificationJobs.organizationId, org.id), eq(notificationJobs.event, 'test')));
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(n);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    const ids = smtp.received
      .filter((m) => m.to[0]!.endsWith('@parallel.test'))
      .map((m) => /^Message-ID: (.*)$/im.exec(m.raw)![1]!.trim());
    expect(ids).toHaveLength(n);
    expect(new Set(ids).size).toBe(n);
  });
});

describe('reminders', () => {
  it('are queued for items waiting longer than reminderAfterDays, at most once a day, and sent', async () => {
    const { admin, org, recipient } = await desk();
    const old = await logItem(admin, { recipientId: recipient.id, sender: 'Old' });
    const fresh = await logItem(admin, { recipientId: recipient.id, sender: 'Fresh' });
    const collected = await logItem(admin, { recipientId: recipient.id, sender: 'Collected' });
    await drain();
    const day = 24 * 3600_000;
    await t.db
      .update(mailItems)
      .set({ arrivedAt: new Date(Date.now() - 4 * day) })
      .where(eq(mailItems.id, old.id));
    await t.db
      .update(mailItems)
      .set({ arrivedAt: new Date(Date.now() - 1 * day) })
      .where(eq(mailItems.id, fresh.id));
    await t.db
      .update(mailItems)
      .set({ arrivedAt: new Date(Date.now() - 9 * day), status: 'delivered' })
      .where(eq(mailItems.id, collected.id));
    const remindersOf = () =>
      t.db
        .select()
        .from(notificationJobs)
        .where(
          and(
            eq(notificationJobs.organizationId, org.id),
            eq(notificationJobs.event, 'mail_item.reminder'),
            eq(notificationJobs.channel, 'event'),
          ),
        );

    await t.app.notifications.scanReminders();
    expect((await remindersOf()).map((r) => r.mailItemId)).toEqual([old.id]);
    await t.app.notifications.scanReminders();
    expect(await remindersOf()).toHaveLength(1); // at most once a day
    // The next day it is due again.
    await t.app.notifications.scanReminders(new Date(Date.now() + day));
    expect(await remindersOf()).toHaveLength(2);

    await drain();
    const reminder = smtp.received.find((m) => m.to.includes(recipient.email!) && m.subject.startsWith('Reminder'));
    expect(reminder?.text).toContain('Sender: Old');

    // Off in the settings: none; a shorter threshold picks the fresher item too.
    await t.db
      .update(organizationSettings)
      .set({ sendReminders: false })
      .where(eq(organizationSettings.organizationId, org.id));
    await t.app.notifications.scanReminders(new Date(Date.now() + 2 * day));
    expect(await remindersOf()).toHaveLength(2);
    await t.db
      .update(organizationSettings)
      .set({ sendReminders: true, reminderAfterDays: 1 })
      .where(eq(organizationSettings.organizationId, org.id));
    await t.app.notifications.scanReminders(new Date(Date.now() + 2 * day));
    expect((await remindersOf()).filter((r) => r.mailItemId === fresh.id)).toHaveLength(1);
  });
});

describe('GET /api/mail-items/:id/notifications', () => {
  it("answers 404 for another organization's item", async () => {
    const mine = await desk();
    const theirs = await desk();
    const item = await logItem(theirs.admin, { recipientId: theirs.recipient.id });
    await drain();
    expect((await mine.admin.get(`/api/mail-items/${item.id}/notifications`)).statusCode).toBe(404);
    expect((await theirs.admin.get(`/api/mail-items/${item.id}/notifications`)).statusCode).toBe(200);
    expect((await mine.admin.get(`/api/mail-items/${crypto.randomUUID()}/notifications`)).statusCode).toBe(404);
  });
});

describe('the front desk is never blocked', () => {
  it('logs an item with the SMTP server down; the message waits for a retry', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const { admin, recipient } = await desk(down);
    const res = await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id });
    expect(res.statusCode).toBe(201);
    const item = res.json<{ id: string; organizationId: string; recipientId: string }>();
    await ensureEvent(down, item, 'mail_item.created');
    await drain(down);
    const [job] = await down.db
      .select()
      .from(notificationJobs)
      .where(and(eq(notificationJobs.mailItemId, item.id), eq(notificationJobs.channel, 'email')));
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(job!.lastError).toMatch(/^SMTP: .*ECONNREFUSED/);
    const [row] = await down.db.select().from(mailItems).where(eq(mailItems.id, item.id));
    expect(row!.status).toBe('pending');
  });
});

describe('backoff', () => {
  it('doubles from 30 s, capped at 8 h, so the default 13 attempts span about a day', () => {
    const mid = () => 0.5;
    expect(backoffMs(1, mid)).toBe(30_000);
    expect(backoffMs(2, mid)).toBe(60_000);
    expect(backoffMs(11, mid)).toBe(8 * 3600_000);
    expect(backoffMs(12, mid)).toBe(8 * 3600_000);
    const total = Array.from({ length: 12 }, (_, i) => backoffMs(i + 1, mid)).reduce((a, b) => a + b, 0);
    expect(total / 3600_000).toBeCloseTo(24.5, 1);
  });

  it('gives a new job 13 attempts', async () => {
    const { org } = await desk();
    const [row] = await t.db
      .insert(notificationJobs)
      .values({ organizationId: org.id, channel: 'webhook', event: 'backoff.test', status: 'skipped' })
      .returning();
    expect(row!.maxAttempts).toBe(13);
  });
});

describe('retention of finished jobs', () => {
  it('deletes sent, failed, skipped and fanned-out jobs past the retention, in batches, and never queued or in-flight ones', async () => {
    const { org } = await desk();
    const now = new Date();
    const old = new Date(now.getTime() - 40 * 86_400_000);
    const job = (status: string, createdAt: Date) => ({
      organizationId: org.id,
      channel: status === 'done' ? 'event' : 'email',
      event: 'retention.test',
      destination: 'keep@retention.test',
      status,
      createdAt,
      // Out of any worker's reach while the test runs.
      nextAttemptAt: new Date(now.getTime() + 86_400_000),
      lockedUntil: status === 'sending' ? new Date(now.getTime() + 86_400_000) : null,
    });
    await t.db
      .insert(notificationJobs)
      .values([
        ...['sent', 'failed', 'skipped', 'done', 'queued', 'sending'].map((s) => job(s, old)),
        job('sent', now),
      ]);
    // More old finished rows than one batch deletes.
    await t.pool.query(
      `insert into notification_jobs (organization_id, channel, event, status, created_at)
       select $1, 'email', 'retention.test', 'sent', $2 from generate_series(1, 5003)`,
      [org.id, old],
    );
    const left = async () =>
      (
        await t.db
          .select({ status: notificationJobs.status, createdAt: notificationJobs.createdAt })
          .from(notificationJobs)
          .where(and(eq(notificationJobs.organizationId, org.id), eq(notificationJobs.event, 'retention.test')))
      )
        .map((r) => `${r.status}:${r.createdAt < now ? 'old' : 'new'}`)
        .sort();

    expect(await deleteOldNotificationJobs(t.db, 0, now)).toBe(0);
    expect(await deleteOldNotificationJobs(t.db, 60, now)).toBe(0);
    expect(await deleteOldNotificationJobs(t.db, 30, now)).toBe(5007);
    expect(await left()).toEqual(['queued:old', 'sending:old', 'sent:new']);
  });
});
