import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { INTEGRATION_MESSAGES, MASKED_SECRET } from '../../../contract';
import { integrations, notificationJobs, organizations } from '../../db/schema';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { createSecretBox, loadSecretKeys } from '../../lib/secrets';
import { adminAndMember, Client, createTestApp, TEST_SECRETS_KEY, type TestApp } from '../../test/harness';
import { startTestSmtp } from '../../test/smtp';
import { CONFIG_MESSAGES } from '../notifications/integration-config';
import { INTEGRATION_ERRORS } from './integrations.service';
import { startReceiver } from './test-receiver';

type IntegrationDto = {
  id: string;
  organizationId: string;
  name: string;
  type: string;
  isActive: boolean;
  config: {
    webhookUrl?: string;
    webhookSecret?: string;
    emailSettings?: Record<string, unknown>;
    smsSettings?: Record<string, unknown>;
  };
  stats: { sent: number; failed: number; queued: number };
  webhookSecret?: string;
  apiKey?: string;
};
type TestReply = { ok: boolean; message: string; responseStatus: number | null; latencyMs: number | null };

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const box = createSecretBox(Buffer.from(TEST_SECRETS_KEY, 'base64'));

beforeAll(async () => {
  t = await createTestApp();
  smtp = await startTestSmtp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await smtp.close();
  await receiver.close();
});

const setup = () => adminAndMember(t);

async function create(c: Client, body: Record<string, unknown>): Promise<IntegrationDto> {
  const res = await c.post('/api/integrations', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<IntegrationDto>();
}

async function storedConfig(id: string) {
  const [row] = await t.db.select().from(integrations).where(eq(integrations.id, id));
  return row!.config;
}

const smtpPort = () => Number(new URL(smtp.url).port);
const emailBody = (password = 'hunter2-smtp') => ({
  name: 'Front desk email',
  type: 'email',
  config: { emailSettings: { smtpHost: '127.0.0.1', smtpPort: smtpPort(), password, fromAddress: 'desk@example.com' } },
});
const smsBody = (baseUrl = receiver.url) => ({
  name: 'Texts',
  type: 'sms',
  config: {
    smsSettings: { accountSid: 'AC123', authToken: 'twilio-token-secret', fromNumber: '+15550001111', baseUrl },
  },
});

describe('who may call', () => {
  it('members list, admins manage; signed out 401', async () => {
    const { admin, member } = await setup();
    await create(admin, { name: 'API', type: 'api' });
    const listed = await member.get('/api/integrations');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<IntegrationDto[]>()).toHaveLength(1);

    const refused = await member.post('/api/integrations', { name: 'Mine', type: 'api' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'admin_required' });
    const anonymous = new Client(t);
    anonymous.organizationId = admin.organizationId;
    expect((await anonymous.get('/api/integrations')).statusCode).toBe(401);
    expect((await admin.get('/api/integrations')).json<IntegrationDto[]>()).toHaveLength(1);
  });

  it("another organization's integration answers 404 and is left alone", async () => {
    const { admin } = await setup();
    const other = await setup();
    const theirs = await create(other.admin, { ...smsBody(), name: 'Theirs' });
    for (const [method, url, body] of [
      ['PUT', `/api/integrations/${theirs.id}`, { isActive: false }],
      ['DELETE', `/api/integrations/${theirs.id}`, undefined],
      ['POST', `/api/integrations/${theirs.id}/test`, { to: '+15551234567' }],
      ['POST', `/api/integrations/${theirs.id}/rotate-secret`, undefined],
      ['GET', `/api/integrations/${theirs.id}/deliveries`, undefined],
      ['GET', `/api/integrations/${theirs.id}/api-keys`, undefined],
    ] as const) {
      const res = await admin.request(method, url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
    const [row] = await t.db.select().from(integrations).where(eq(integrations.id, theirs.id));
    expect(row?.isActive).toBe(true);
    expect(receiver.received.filter((r) => r.url.includes('AC123'))).toHaveLength(0);
    expect((await admin.get('/api/integrations')).json()).toEqual([]);
  });
});

describe('create, edit, delete', () => {
  it('validates each type with the specification messages and creates nothing on refusal', async () => {
    const { admin, org } = await setup();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'Hook', type: 'webhook', config: {} }, INTEGRATION_MESSAGES.webhookUrl],
      [{ name: 'Hook', type: 'webhook', config: { webhookUrl: 'not a url' } }, INTEGRATION_MESSAGES.webhookUrl],
      [{ name: 'Texts', type: 'sms', config: { smsSettings: { accountSid: 'AC1' } } }, CONFIG_MESSAGES.authToken],
      [{ name: 'Mail', type: 'email', config: { emailSettings: { username: 'x' } } }, CONFIG_MESSAGES.smtpHostRequired],
      [{ name: '', type: 'api' }, 'Name is required'],
      [{ name: 'X', type: 'fax' }, 'Type must be email, sms, webhook, api, slack or teams'],
      [
        { name: 'Mail', type: 'email', config: { emailSettings: { smtpHost: 'h', smtpPort: 70000 } } },
        'SMTP port must be between 1 and 65535',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/api/integrations', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ message });
    }
    const sms = await admin.post('/api/integrations', { name: 'Texts', type: 'sms', config: {} });
    expect(sms.json<{ errors: Array<{ path: string }> }>().errors.map((e) => e.path)).toEqual([
      'config.smsSettings.accountSid',
      'config.smsSettings.authToken',
      'config.smsSettings.fromNumber',
    ]);
    expect(await t.db.select().from(integrations).where(eq(integrations.organizationId, org.id))).toEqual([]);
  });

  it('stores secrets encrypted, answers them masked and keeps them when an edit leaves them out', async () => {
    const { admin } = await setup();
    const created = await create(admin, emailBody('hunter2-smtp'));
    expect(created.config.emailSettings).toMatchObject({ smtpHost: '127.0.0.1', password: MASKED_SECRET });
    let stored = await storedConfig(created.id);
    expect(stored.emailSettings?.password).toMatch(/^enc:v1:/);
    expect(box.decrypt(stored.emailSettings!.password!)).toBe('hunter2-smtp');

    const sms = await create(admin, smsBody());
    expect(sms.config.smsSettings?.authToken).toBe(MASKED_SECRET);
    expect((await storedConfig(sms.id)).smsSettings?.authToken).toMatch(/^enc:v1:/);

    // Masked, blank, left out: kept. The other fields change.
    for (const password of [MASKED_SECRET, '', undefined]) {
      const res = await admin.put(`/api/integrations/${created.id}`, {
        name: 'Renamed',
        type: 'email',
        isActive: true,
        config: { emailSettings: { smtpHost: 'smtp.example.com', smtpPort: 2525, password } },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<IntegrationDto>().config.emailSettings).toEqual({
        smtpHost: 'smtp.example.com',
        smtpPort: 2525,
        password: MASKED_SECRET,
      });
      stored = await storedConfig(created.id);
      expect(box.decrypt(stored.emailSettings!.password!)).toBe('hunter2-smtp');
    }
    const changed = await admin.put(`/api/integrations/${created.id}`, {
      config: { emailSettings: { smtpHost: 'smtp.example.com', password: 'new-pass' } },
    });
    expect(changed.statusCode).toBe(200);
    expect(box.decrypt((await storedConfig(created.id)).emailSettings!.password!)).toBe('new-pass');

    const everything = [
      (await admin.get('/api/integrations')).body,
      changed.body,
      JSON.stringify(created),
      JSON.stringify(sms),
    ].join('\n');
    for (const clear of ['hunter2-smtp', 'new-pass', 'twilio-token-secret']) expect(everything).not.toContain(clear);
  });

  it('switches on and off with only isActive; the type cannot change; delete answers 204 then 404', async () => {
    const { admin } = await setup();
    const hook = await create(admin, { name: 'Hook', type: 'webhook', config: { webhookUrl: `${receiver.url}/hook` } });
    const off = await admin.put(`/api/integrations/${hook.id}`, { isActive: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ isActive: false, name: 'Hook', config: { webhookUrl: `${receiver.url}/hook` } });

    const typeChange = await admin.put(`/api/integrations/${hook.id}`, { type: 'email', name: 'Nope' });
    expect(typeChange.statusCode).toBe(400);
    expect(typeChange.json()).toMatchObject({ message: INTEGRATION_ERRORS.typeChange });
    const badUrl = await admin.put(`/api/integrations/${hook.id}`, { config: { webhookUrl: '' } });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toMatchObject({ message: INTEGRATION_MESSAGES.webhookUrl });
    const [row] = await t.db.select().from(integrations).where(eq(integrations.id, hook.id));
    expect(row).toMatchObject({ name: 'Hook', type: 'webhook', isActive: false });
    expect(row!.config.webhookUrl).toBe(`${receiver.url}/hook`);

    expect((await admin.delete(`/api/integrations/${hook.id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/integrations/${hook.id}`)).statusCode).toBe(404);
    expect((await admin.put(`/api/integrations/${hook.id}`, { isActive: true })).statusCode).toBe(404);
  });

  it('refuses new integrations with 402 trial_expired after the trial, and still lists', async () => {
    const { admin, member, org } = await setup();
    await create(admin, { name: 'Before', type: 'api' });
    await t.db
      .update(organizations)
      .set({ trialEndDate: new Date(Date.now() - 60_000) })
      .where(eq(organizations.id, org.id));
    const res = await admin.post('/api/integrations', { name: 'After', type: 'api' });
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json()).toMatchObject({ code: 'trial_expired' });
    expect((await member.get('/api/integrations')).json<IntegrationDto[]>().map((i) => i.name)).toEqual(['Before']);
  });
});

describe('webhook signing secrets', () => {
  it('answers the secret once, signs test events with it (Standard Webhooks) and rotates it', async () => {
    const { admin, org } = await setup();
    const hook = await create(admin, { name: 'Hook', type: 'webhook', config: { webhookUrl: `${receiver.url}/hook` } });
    expect(hook.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(hook.config.webhookSecret).toBe(MASKED_SECRET);
    const stored = await storedConfig(hook.id);
    expect(stored.webhookSecret).toMatch(/^enc:v1:/);
    expect(box.decrypt(stored.webhookSecret!)).toBe(hook.webhookSecret);
    expect((await admin.get('/api/integrations')).body).not.toContain(hook.webhookSecret!.slice(6));

    receiver.respondWith(() => ({ status: 204 }));
    const sent = await admin.post(`/api/integrations/${hook.id}/test`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<TestReply>()).toMatchObject({ ok: true, responseStatus: 204 });
    const delivery = receiver.received.at(-1)!;
    expect(delivery.url).toBe('/hook');
    const payload = new Webhook(hook.webhookSecret!).verify(delivery.body, delivery.headers as Record<string, string>);
    expect(payload).toMatchObject({ type: 'test', data: { integrationId: hook.id, organizationId: org.id } });

    const rotated = await admin.post(`/api/integrations/${hook.id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const secret = rotated.json<IntegrationDto>().webhookSecret!;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(hook.webhookSecret);
    await admin.post(`/api/integrations/${hook.id}/test`, {});
    const next = receiver.received.at(-1)!;
    expect(() => new Webhook(hook.webhookSecret!).verify(next.body, next.headers as Record<string, string>)).toThrow();
    expect(new Webhook(secret).verify(next.body, next.headers as Record<string, string>)).toMatchObject({
      type: 'test',
    });

    // Editing the webhook keeps its secret.
    await admin.put(`/api/integrations/${hook.id}`, {
      name: 'Hook 2',
      config: { webhookUrl: `${receiver.url}/hook2` },
    });
    expect(box.decrypt((await storedConfig(hook.id)).webhookSecret!)).toBe(secret);

    const notWebhook = await create(admin, { name: 'API', type: 'api' });
    expect((await admin.post(`/api/integrations/${notWebhook.id}/rotate-secret`)).statusCode).toBe(400);
  });

  it('a receiver answering 500 is a failed test (HTTP 200, ok false) in the delivery log', async () => {
    const { admin } = await setup();
    const hook = await create(admin, { name: 'Hook', type: 'webhook', config: { webhookUrl: `${receiver.url}/down` } });
    receiver.respondWith(() => ({ status: 500 }));
    const res = await admin.post(`/api/integrations/${hook.id}/test`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json<TestReply>()).toMatchObject({
      ok: false,
      responseStatus: 500,
      message: 'Webhook receiver answered 500',
    });
    const log = await admin.get(`/api/integrations/${hook.id}/deliveries`);
    expect(log.json()).toMatchObject([{ channel: 'webhook', event: 'test', status: 'failed', responseStatus: 500 }]);
  });
});

describe('test messages', () => {
  it('email: to the caller through the integration SMTP server, logged as sent', async () => {
    const { admin, account } = await setup();
    const mail = await create(admin, {
      ...emailBody(),
      config: { emailSettings: { smtpHost: '127.0.0.1', smtpPort: smtpPort(), fromAddress: 'desk@example.com' } },
    });
    const res = await admin.post(`/api/integrations/${mail.id}/test`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TestReply>()).toMatchObject({ ok: true, responseStatus: 250 });
    const received = await smtp.waitFor(account.email, { subject: /test/i });
    expect(received.from).toBe('desk@example.com');
    expect(received.subject).toContain('Harbor View');

    const log = await admin.get(`/api/integrations/${mail.id}/deliveries`);
    expect(log.headers['x-total-count']).toBe('1');
    expect(log.json()).toMatchObject([{ channel: 'email', event: 'test', status: 'sent', destination: account.email }]);
    expect((await admin.get('/api/integrations')).json<IntegrationDto[]>()[0]!.stats).toEqual({
      sent: 1,
      failed: 0,
      queued: 0,
    });
  });

  it('email: an unreachable SMTP host or refused credentials answer ok false with a clear message', async () => {
    const { admin } = await setup();
    const closed = await create(admin, {
      name: 'Closed',
      type: 'email',
      config: { emailSettings: { smtpHost: '127.0.0.1', smtpPort: 1 } },
    });
    const res = await admin.post(`/api/integrations/${closed.id}/test`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TestReply>().ok).toBe(false);
    expect(res.json<TestReply>().message).toMatch(/^Could not connect to the SMTP server at 127\.0\.0\.1:1/);

    // A server that asks for credentials and refuses these.
    const strict = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (_auth, _session, callback) => callback(new Error('Invalid username or password')),
    });
    await new Promise<void>((resolve) => strict.listen(0, '127.0.0.1', resolve));
    try {
      const port = (strict.server.address() as AddressInfo).port;
      const auth = await create(admin, {
        name: 'Strict',
        type: 'email',
        config: { emailSettings: { smtpHost: '127.0.0.1', smtpPort: port, username: 'someone', password: 'wrong' } },
      });
      const refused = await admin.post(`/api/integrations/${auth.id}/test`, {});
      expect(refused.statusCode).toBe(200);
      expect(refused.json<TestReply>()).toMatchObject({
        ok: false,
        message: `The SMTP server at 127.0.0.1:${port} refused the username or password`,
      });
    } finally {
      await new Promise<void>((resolve) => strict.close(() => resolve()));
    }
  });

  it('sms: Twilio Messages API, form-encoded with basic auth; provider errors are clear', async () => {
    const { admin } = await setup();
    const sms = await create(admin, smsBody());
    receiver.respondWith(() => ({ status: 201, body: { sid: 'SM1', status: 'queued' } }));
    const missing = await admin.post(`/api/integrations/${sms.id}/test`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: INTEGRATION_ERRORS.smsTo });

    const res = await admin.post(`/api/integrations/${sms.id}/test`, { to: '+15557654321' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TestReply>()).toMatchObject({ ok: true, responseStatus: 201 });
    const req = receiver.received.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('AC123:twilio-token-secret').toString('base64')}`);
    expect(req.headers['content-type']).toContain('application/x-www-form-urlencoded');
    const form = new URLSearchParams(req.body);
    expect(form.get('To')).toBe('+15557654321');
    expect(form.get('From')).toBe('+15550001111');
    expect(form.get('Body')).toBeTruthy();

    receiver.respondWith(() => ({ status: 401, body: { code: 20003, message: 'Authenticate' } }));
    const bad = await admin.post(`/api/integrations/${sms.id}/test`, { to: '+15557654321' });
    expect(bad.json<TestReply>()).toMatchObject({
      ok: false,
      responseStatus: 401,
      message: 'SMS provider answered 401: Authenticate',
    });
    const log = (await admin.get(`/api/integrations/${sms.id}/deliveries`)).json<Array<{ status: string }>>();
    expect(log.map((l) => l.status)).toEqual(['failed', 'sent']);
  });

  it('api: answers ok with a note and records nothing', async () => {
    const { admin } = await setup();
    const api = await create(admin, { name: 'API', type: 'api' });
    const res = await admin.post(`/api/integrations/${api.id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TestReply>()).toMatchObject({ ok: true });
    expect((await admin.get(`/api/integrations/${api.id}/deliveries`)).json()).toEqual([]);
  });
});

describe('stats and the delivery log', () => {
  it('counts the last 7 days of messages per integration in one list, newest first with X-Total-Count', async () => {
    const { admin, org } = await setup();
    const a = await create(admin, smsBody());
    const b = await create(admin, { name: 'Hook', type: 'webhook', config: { webhookUrl: `${receiver.url}/x` } });
    const old = new Date(Date.now() - 8 * 86_400_000);
    const job = (integrationId: string, status: string, extra: Partial<typeof notificationJobs.$inferInsert> = {}) => ({
      organizationId: org.id,
      integrationId,
      channel: 'sms',
      event: 'mail_item.created',
      status,
      ...extra,
    });
    await t.db
      .insert(notificationJobs)
      .values([
        job(a.id, 'sent', { createdAt: new Date(Date.now() - 3000) }),
        job(a.id, 'sent', { createdAt: new Date(Date.now() - 2000) }),
        job(a.id, 'failed', { createdAt: new Date(Date.now() - 1000) }),
        job(a.id, 'queued'),
        job(a.id, 'sending'),
        job(a.id, 'done', { channel: 'event' }),
        job(a.id, 'sent', { createdAt: old }),
        job(b.id, 'failed', { channel: 'webhook' }),
      ]);
    const list = (await admin.get('/api/integrations')).json<IntegrationDto[]>();
    expect(list.find((i) => i.id === a.id)!.stats).toEqual({ sent: 2, failed: 1, queued: 2 });
    expect(list.find((i) => i.id === b.id)!.stats).toEqual({ sent: 0, failed: 1, queued: 0 });

    const page = await admin.get(`/api/integrations/${a.id}/deliveries?limit=2&offset=0`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['x-total-count']).toBe('6');
    expect(page.json<unknown[]>()).toHaveLength(2);
    const all = (await admin.get(`/api/integrations/${a.id}/deliveries?limit=100`)).json<
      Array<{ createdAt: string; status: string }>
    >();
    expect(all.map((m) => m.createdAt)).toEqual([...all.map((m) => m.createdAt)].sort().reverse());
    expect(all.at(-1)!.createdAt).toBe(old.toISOString());
    expect((await admin.get(`/api/integrations/${a.id}/deliveries?limit=0`)).statusCode).toBe(400);
  });
});

describe('with the SSRF guard on (the default, in development too)', () => {
  let p: TestApp;
  beforeAll(async () => {
    p = await createTestApp({ NODE_ENV: 'development', ALLOW_PRIVATE_TARGETS: 'false' });
  });

  it('refuses webhook URLs and SMS base URLs that reach private, loopback or link-local addresses', async () => {
    const admin = new Client(p);
    await admin.register();
    await admin.createOrganization('Prod');
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
      'http://localhost/x',
      'http://[::127.0.0.1]/x',
      'http://[64:ff9b::a9fe:a9fe]/latest',
      'http://[2002:7f00:1::1]/x',
    ]) {
      const res = await admin.post('/api/integrations', { name: 'Hook', type: 'webhook', config: { webhookUrl: url } });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ message: INTEGRATION_MESSAGES.privateAddress });
    }
    const sms = await admin.post('/api/integrations', { ...smsBody('http://192.168.1.10') });
    expect(sms.statusCode).toBe(400);
    expect(sms.json()).toMatchObject({ message: CONFIG_MESSAGES.smsBaseUrlPrivate });
    const mail = await admin.post('/api/integrations', {
      name: 'Mail',
      type: 'email',
      config: { emailSettings: { smtpHost: '127.0.0.1' } },
    });
    expect(mail.statusCode).toBe(400);
    expect(mail.json()).toMatchObject({ message: CONFIG_MESSAGES.smtpHostPrivate });

    const ok = await admin.post('/api/integrations', {
      name: 'Hook',
      type: 'webhook',
      config: { webhookUrl: 'https://93.184.216.34/hook' },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const id = ok.json<IntegrationDto>().id;
    const moved = await admin.put(`/api/integrations/${id}`, { config: { webhookUrl: 'http://127.0.0.1/hook' } });
    expect(moved.statusCode).toBe(400);
    const [row] = await p.db.select().from(integrations).where(eq(integrations.id, id));
    expect(row!.config.webhookUrl).toBe('https://93.184.216.34/hook');

    // Checked again at send time: a URL that became private (written behind the API's back) is not called.
    await p.db
      .update(integrations)
      .set({ config: { ...row!.config, webhookUrl: `${receiver.url}/late` } })
      .where(eq(integrations.id, id));
    const before = receiver.received.length;
    const sent = await admin.post(`/api/integrations/${id}/test`, {});
    expect(sent.json<TestReply>()).toMatchObject({ ok: false, message: INTEGRATION_MESSAGES.privateAddress });
    expect(receiver.received.length).toBe(before);
  });
});

describe('SECRETS_KEY rotation', () => {
  const NEW_KEY = Buffer.alloc(32, 9).toString('base64');
  /** A second instance on the same database, started with the new key and the old one as previous. */
  async function instanceWith(env: Record<string, string>) {
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        SEED_DEMO: 'false',
        CACHE_TTL_MS: '0',
        NOTIFICATIONS_WORKER: 'false',
        ALLOW_PRIVATE_TARGETS: 'true',
        ...env,
      },
      process.cwd(),
    );
    const app = await buildApp({ config, db: t.db });
    await app.ready();
    return app;
  }

  it('keeps old secrets readable under SECRETS_KEY_PREVIOUS, re-encrypts them once with the new key, and sends with them', async () => {
    const { admin } = await setup();
    const email = await create(admin, emailBody('smtp-pass-before-rotation'));
    const hook = await create(admin, { name: 'Hook', type: 'webhook', config: { webhookUrl: `${receiver.url}/hook` } });
    const before = { email: await storedConfig(email.id), hook: await storedConfig(hook.id) };

    // The new key alone cannot read what the old one wrote.
    const newBox = createSecretBox(Buffer.from(NEW_KEY, 'base64'));
    expect(() => newBox.decrypt(before.hook.webhookSecret!)).toThrow(/cannot be read/);

    const rotating = await instanceWith({ SECRETS_KEY: NEW_KEY, SECRETS_KEY_PREVIOUS: TEST_SECRETS_KEY });
    try {
      const first = await rotating.reencryptSecrets();
      expect(first.unreadable).toBe(0);
      expect(first.reencrypted).toBeGreaterThanOrEqual(2); // this test's two, and earlier tests' secrets
      expect(await rotating.reencryptSecrets()).toEqual({ reencrypted: 0, unreadable: 0 });
    } finally {
      await rotating.close();
    }
    const after = { email: await storedConfig(email.id), hook: await storedConfig(hook.id) };
    expect(after.hook.webhookSecret).not.toBe(before.hook.webhookSecret);
    expect(newBox.decrypt(after.hook.webhookSecret!)).toBe(hook.webhookSecret);
    expect(newBox.decrypt(after.email.emailSettings!.password!)).toBe('smtp-pass-before-rotation');
    expect(after.email.emailSettings).toMatchObject({ smtpHost: '127.0.0.1', fromAddress: 'desk@example.com' });

    // An instance with only the new key now signs with the same webhook secret as before.
    const rotated = await instanceWith({ SECRETS_KEY: NEW_KEY });
    try {
      receiver.respondWith(() => ({ status: 204 }));
      const sent = await rotated.inject({
        method: 'POST',
        url: `/api/integrations/${hook.id}/test`,
        headers: { cookie: admin.cookie!, 'x-organization-id': admin.organizationId! },
        payload: {},
      });
      expect(sent.json<TestReply>()).toMatchObject({ ok: true, responseStatus: 204 });
      const delivery = receiver.received.at(-1)!;
      expect(
        new Webhook(hook.webhookSecret!).verify(delivery.body, delivery.headers as Record<string, string>),
      ).toMatchObject({ type: 'test' });
    } finally {
      await rotated.close();
    }
  });

  it('refuses a previous key that is not 32 bytes', () => {
    expect(() => loadSecretKeys(NEW_KEY, ['c2hvcnQ='], '/tmp')).toThrow('SECRETS_KEY_PREVIOUS must be 32 bytes');
  });
});
