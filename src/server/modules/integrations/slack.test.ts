import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { MASKED_SECRET, SLACK_MESSAGES } from '../../../contract';
import { integrations, notificationJobs, recipients } from '../../db/schema';
import { createSecretBox } from '../../lib/secrets';
import { adminAndMember, Client, createTestApp, TEST_SECRETS_KEY, type TestApp } from '../../test/harness';
import { testWorkers } from '../../test/notification-workers';
import { startSlackApiServer, type SlackApiServer, type SlackWorkspace } from '../../test/slack-api-server';

/**
 * Slack (decision 064) against a local server speaking Slack's Web API, called by the official
 * @slack/web-api pointed at it with SLACK_API_URL: connecting a workspace, the staff channel's
 * choices, a recipient's DM through the outbox, rate limits, a revoked token, an unknown user.
 */
let slack: SlackApiServer;
let t: TestApp;
const box = createSecretBox(Buffer.from(TEST_SECRETS_KEY, 'base64'));
const workers = testWorkers();

beforeAll(async () => {
  slack = await startSlackApiServer();
  t = await createTestApp({ SLACK_API_URL: slack.url });
});
afterAll(async () => {
  await slack.close();
});

type Dto = {
  id: string;
  type: string;
  isActive: boolean;
  attention: { reason: string; since: string } | null;
  config: { slackSettings?: Record<string, string> };
};

let seq = 0;
/** An organization with its admin and a member, a Slack workspace, and a recipient on it. */
async function desk(opts: { onSlack?: boolean } = {}) {
  seq += 1;
  const { admin, member, org } = await adminAndMember(t, `Harbor View ${seq}`);
  const email = `amara${seq}@example.com`;
  const ws = slack.addWorkspace({ users: opts.onSlack === false ? {} : { [email]: `UAMARA${seq}` } });
  const [recipient] = await t.db
    .insert(recipients)
    .values({ organizationId: org.id, firstName: 'Amara', lastName: 'Okafor', email, unit: '101' })
    .returning();
  return { admin, member, org, ws, recipient: recipient! };
}

async function connect(admin: Client, ws: SlackWorkspace, extra: Record<string, string> = {}) {
  const res = await admin.post('/api/integrations', {
    name: 'Slack',
    type: 'slack',
    config: { slackSettings: { botToken: ws.token, ...extra } },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Dto>();
}

const slackJobs = (organizationId: string) =>
  t.db
    .select()
    .from(notificationJobs)
    .where(and(eq(notificationJobs.organizationId, organizationId), eq(notificationJobs.channel, 'slack')))
    .orderBy(notificationJobs.createdAt);

async function logItem(admin: Client, recipientId: string) {
  const res = await admin.post('/api/mail-items', { type: 'package', sender: 'Acme', recipientId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>();
}

const postedTo = (channel: string) => slack.posted.filter((m) => m.channel === channel);

describe('connecting a workspace', () => {
  it('checks the token with auth.test, stores it encrypted and answers it masked, with the workspace', async () => {
    const { admin, org, ws } = await desk();
    const created = await connect(admin, ws);
    expect(created).toMatchObject({ type: 'slack', isActive: true, attention: null });
    expect(created.config.slackSettings).toMatchObject({
      botToken: MASKED_SECRET,
      teamId: ws.teamId,
      teamName: ws.teamName,
    });
    const [row] = await t.db.select().from(integrations).where(eq(integrations.id, created.id));
    expect(row!.config.slackSettings!.botToken).not.toBe(ws.token);
    expect(box.decrypt(row!.config.slackSettings!.botToken!)).toBe(ws.token);
    expect(JSON.stringify((await admin.get('/api/integrations')).json())).not.toContain(ws.token);

    // The staff channel's choices come from conversations.list with the stored token.
    const channels = await admin.get(`/api/integrations/${created.id}/slack-channels`);
    expect(channels.statusCode).toBe(200);
    expect(channels.json()).toEqual([
      { id: 'C0FRONTDSK', name: 'front-desk', isPrivate: false, isMember: true },
      { id: 'C0GENERAL1', name: 'general', isPrivate: false, isMember: false },
    ]);
    expect(slack.calls.filter((c) => c.method === 'conversations.list').at(-1)!.token).toBe(ws.token);

    // Saving the channel keeps the token (sent back masked) and checks it again.
    const saved = await admin.put(`/api/integrations/${created.id}`, {
      config: {
        slackSettings: { botToken: MASKED_SECRET, staffChannelId: 'C0FRONTDSK', staffChannelName: 'front-desk' },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<Dto>().config.slackSettings).toMatchObject({
      botToken: MASKED_SECRET,
      staffChannelId: 'C0FRONTDSK',
      staffChannelName: 'front-desk',
      teamName: ws.teamName,
    });
    expect(org.id).toBeTruthy();
  });

  it('refuses a token Slack refuses with a 400 on its field, and saves nothing', async () => {
    const { admin, org } = await desk();
    const res = await admin.post('/api/integrations', {
      name: 'Slack',
      type: 'slack',
      config: { slackSettings: { botToken: 'xoxb-not-a-real-token' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'slack_token_refused',
      message: `${SLACK_MESSAGES.tokenRefused} (invalid_auth)`,
      errors: [{ path: 'config.slackSettings.botToken' }],
    });
    const missing = await admin.post('/api/integrations', { name: 'Slack', type: 'slack', config: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: 'Bot token is required' });
    const badChannel = await admin.post('/api/integrations', {
      name: 'Slack',
      type: 'slack',
      config: { slackSettings: { botToken: 'xoxb-x', staffChannelId: '#front desk' } },
    });
    expect(badChannel.statusCode).toBe(400);
    expect(badChannel.json<{ message: string }>().message).toContain('Staff channel must be a Slack channel id');
    expect(await t.db.select().from(integrations).where(eq(integrations.organizationId, org.id))).toEqual([]);
  });

  it('answers 502 when Slack cannot be reached, and saves nothing', async () => {
    const { admin, org, ws } = await desk();
    const elsewhere = await createTestApp({ SLACK_API_URL: 'http://127.0.0.1:9/api/' });
    const c = new Client(elsewhere);
    await c.register();
    await c.createOrganization('Nowhere');
    const res = await c.post('/api/integrations', {
      name: 'Slack',
      type: 'slack',
      config: { slackSettings: { botToken: ws.token } },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'slack_unreachable', message: SLACK_MESSAGES.unreachable });
    expect(await t.db.select().from(integrations).where(eq(integrations.organizationId, org.id))).toEqual([]);
    expect(admin).toBeTruthy();
  });

  it('is for admins: a member is refused (403), another organization finds nothing (404)', async () => {
    const { admin, member, ws } = await desk();
    const refused = await member.post('/api/integrations', {
      name: 'Slack',
      type: 'slack',
      config: { slackSettings: { botToken: ws.token } },
    });
    expect(refused.statusCode).toBe(403);
    const created = await connect(admin, ws);
    expect((await member.get(`/api/integrations/${created.id}/slack-channels`)).statusCode).toBe(403);

    const other = await desk();
    expect((await other.admin.get(`/api/integrations/${created.id}/slack-channels`)).statusCode).toBe(404);
    const put = await other.admin.put(`/api/integrations/${created.id}`, {
      config: { slackSettings: { botToken: other.ws.token } },
    });
    expect(put.statusCode).toBe(404);
    const [row] = await t.db.select().from(integrations).where(eq(integrations.id, created.id));
    expect(box.decrypt(row!.config.slackSettings!.botToken!)).toBe(ws.token);

    // Another type has no Slack channels.
    const api = await admin.post('/api/integrations', { name: 'API', type: 'api' });
    const notSlack = await admin.get(`/api/integrations/${api.json<Dto>().id}/slack-channels`);
    expect(notSlack.statusCode).toBe(400);
    expect(notSlack.json()).toMatchObject({ code: 'not_slack_integration', message: SLACK_MESSAGES.notSlack });
  });
});

describe('Send test', () => {
  it('checks the token without a staff channel, posts to the channel with one, and logs it', async () => {
    const { admin, member, ws } = await desk();
    const created = await connect(admin, ws);
    const check = await admin.post(`/api/integrations/${created.id}/test`, {});
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ ok: true, message: expect.stringContaining(`Connected to ${ws.teamName}`) });
    await admin.put(`/api/integrations/${created.id}`, {
      config: { slackSettings: { staffChannelId: 'C0FRONTDSK', staffChannelName: 'front-desk' } },
    });
    const sent = await admin.post(`/api/integrations/${created.id}/test`, {});
    expect(sent.json()).toMatchObject({ ok: true, message: 'Test message posted to #front-desk', responseStatus: 200 });
    expect(slack.posted.filter((m) => m.token === ws.token && m.channel === 'C0FRONTDSK')).toHaveLength(1);
    const log = await admin.get(`/api/integrations/${created.id}/deliveries`);
    expect(log.json<Array<{ channel: string; event: string; status: string }>>()[0]).toMatchObject({
      channel: 'slack',
      event: 'test',
      status: 'sent',
    });
    expect((await member.post(`/api/integrations/${created.id}/test`, {})).statusCode).toBe(403);
  });
});

describe("a recipient's direct message through the outbox", () => {
  it('sends the arrival as a DM to the user found by email, the pickup code first and bold', async () => {
    const { admin, org, ws, recipient } = await desk();
    await connect(admin, ws);
    const item = await logItem(admin, recipient.id);
    await workers.drain(t);

    const [job] = await slackJobs(org.id);
    expect(job).toMatchObject({
      status: 'sent',
      mailItemId: item.id,
      recipientId: recipient.id,
      destination: recipient.email,
      dedupeKey: expect.stringMatching(new RegExp(`:slack:${recipient.id}$`)),
    });
    const [dm] = postedTo(ws.users.get(recipient.email!)!);
    expect(dm).toBeDefined();
    const code = (await t.db.select().from(recipients).where(eq(recipients.id, recipient.id)))[0]!.pickupCode!;
    const shown = `${code.slice(0, 3)}-${code.slice(3)}`;
    expect(dm!.text).toContain(shown);
    const blocks = dm!.blocks as Array<{ type: string; text: { text: string } }>;
    expect(blocks[0]).toMatchObject({
      type: 'header',
      text: { text: `Your package has arrived at Harbor View ${seq}` },
    });
    const body = blocks[1]!.text.text;
    // The code's line comes first, bold, the code itself as code.
    expect(body.split('\n')[0]).toBe(`*Your pickup code: \`${shown}\`*`);
    expect(body).toContain('Sender: Acme');
    // The page link's token was minted as it went out: no placeholder left.
    expect(body).toMatch(/https?:\/\/\S+\/my\/open#token=[\w-]{20,}/);
    expect(body).not.toContain('__PORTAL_LINK_TOKEN__');

    // Shown on the item's timeline like email and SMS.
    const timeline = await admin.get(`/api/mail-items/${item.id}/notifications`);
    expect(timeline.json<Array<{ channel: string; status: string }>>()).toContainEqual(
      expect.objectContaining({ channel: 'slack', status: 'sent' }),
    );
  });

  it('waits out a 429 for its Retry-After without counting the attempt, then sends', async () => {
    const { admin, org, ws, recipient } = await desk();
    await connect(admin, ws);
    await logItem(admin, recipient.id);
    slack.rateLimit(1, 1);
    const before = Date.now();
    await workers.drain(t);
    const [waiting] = await slackJobs(org.id);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 0, responseStatus: 429 });
    expect(waiting!.lastError).toContain('Slack rate limit: retrying after 1 s');
    expect(waiting!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 900);
    expect(waiting!.nextAttemptAt.getTime()).toBeLessThan(Date.now() + 1500);

    await new Promise((r) => setTimeout(r, waiting!.nextAttemptAt.getTime() - Date.now() + 50));
    await workers.drain(t);
    const [sent] = await slackJobs(org.id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(postedTo(ws.users.get(recipient.email!)!)).toHaveLength(1);
  });

  it('a revoked token fails the message, marks the integration, and later messages are skipped, not tried', async () => {
    const { admin, org, ws, recipient } = await desk();
    const created = await connect(admin, ws);
    slack.revoke(ws.token);
    await logItem(admin, recipient.id);
    await workers.drain(t);
    const [failed] = await slackJobs(org.id);
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'Slack refused the token (token_revoked)',
    });

    const list = (await admin.get('/api/integrations')).json<Dto[]>();
    const marked = list.find((i) => i.id === created.id)!;
    expect(marked.attention).toMatchObject({
      reason: `Slack refused the token (token_revoked): ${SLACK_MESSAGES.attention}`,
    });

    const callsBefore = slack.calls.length;
    await logItem(admin, recipient.id);
    await workers.drain(t);
    const jobs = await slackJobs(org.id);
    expect(jobs[1]).toMatchObject({
      status: 'skipped',
      skipReason: `The Slack integration needs attention: ${marked.attention!.reason}`,
    });
    expect(slack.calls.length).toBe(callsBefore);

    // Saving it with a working token clears the attention.
    const fresh = slack.addWorkspace({ users: { [recipient.email!]: 'UAMARANEW' } });
    const fixed = await admin.put(`/api/integrations/${created.id}`, {
      config: { slackSettings: { botToken: fresh.token } },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json<Dto>().attention).toBeNull();
  });

  it('reports a recipient who is not in the workspace, and does not retry', async () => {
    const { admin, org, ws, recipient } = await desk({ onSlack: false });
    await connect(admin, ws);
    await logItem(admin, recipient.id);
    await workers.drain(t);
    const [job] = await slackJobs(org.id);
    expect(job).toMatchObject({ status: 'skipped', skipReason: SLACK_MESSAGES.userNotFound });
  });

  it('respects the opt-out, and a recipient without an email gets no Slack message', async () => {
    const { admin, org, ws, recipient } = await desk();
    await connect(admin, ws);
    await t.db.update(recipients).set({ notificationsOptOutAt: new Date() }).where(eq(recipients.id, recipient.id));
    await logItem(admin, recipient.id);
    const [noEmail] = await t.db
      .insert(recipients)
      .values({ organizationId: org.id, firstName: 'Ben', lastName: 'Li', email: null, phone: '+15550001234' })
      .returning();
    await logItem(admin, noEmail!.id);
    await workers.drain(t);
    expect(await slackJobs(org.id)).toEqual([]);
  });
});

describe('the staff channel', () => {
  it('hears of an item logged without a recipient, once', async () => {
    const { admin, org, ws } = await desk();
    await connect(admin, ws, { staffChannelId: 'C0FRONTDSK', staffChannelName: 'front-desk' });
    const res = await admin.post('/api/mail-items/needs-recipient', { type: 'package', sender: 'Globex' });
    expect(res.statusCode, res.body).toBe(201);
    await workers.drain(t);
    const [job] = await slackJobs(org.id);
    expect(job).toMatchObject({ status: 'sent', event: 'staff.needs_recipient', destination: '#front-desk' });
    const posted = slack.posted.filter((m) => m.token === ws.token && m.channel === 'C0FRONTDSK');
    expect(posted).toHaveLength(1);
    expect(posted[0]!.text).toMatch(
      /^An item needs a recipient: Package from Globex\. Assign it: .*\/needs-recipient$/,
    );
  });

  it('queues nothing for an organization without a staff channel', async () => {
    const { admin, org, ws } = await desk();
    await connect(admin, ws);
    await admin.post('/api/mail-items/needs-recipient', { type: 'package' });
    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from notification_jobs where organization_id = ${org.id} and channel = 'slack'`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});
