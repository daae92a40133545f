import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATION_MESSAGES, MASKED_SECRET, type NotificationMessage } from '../../../contract';
import { integrations, mailroomLocations, mailrooms, notificationJobs, recipients } from '../../db/schema';
import { createSecretBox } from '../../lib/secrets';
import { adminAndMember, createTestApp, TEST_SECRETS_KEY, type Client, type TestApp } from '../../test/harness';
import { testWorkers } from '../../test/notification-workers';
import { cardErrors, startTeamsReceiver } from '../../test/teams-receiver';
import { TEAMS_SKIP_REASONS } from './teams-fan-out';

/**
 * Microsoft Teams channels (issue 44 §2, decision 065): created in Integrations, fed by the outbox
 * with Adaptive Cards that a local Workflows-like receiver checks against the Adaptive Card schema.
 */

const box = createSecretBox(Buffer.from(TEST_SECRETS_KEY, 'base64'));
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startTeamsReceiver>>;
/** What the receiver answers next, by post number (default 202). */
let script: (n: number) => { status: number; body?: string } | undefined = () => undefined;
const workers = testWorkers();
const drain = () => workers.drain(t);

beforeAll(async () => {
  t = await createTestApp();
  receiver = await startTeamsReceiver((n) => script(n));
});
afterAll(async () => {
  await receiver.close();
});

type IntegrationDto = {
  id: string;
  type: string;
  config: { teamsSettings?: { webhookUrl?: string; webhookHost?: string; mailroomId?: string | null } };
};

/** An organization with an admin, a member, a recipient, and a Lobby with a shelf. */
async function desk() {
  const { admin, member, org } = await adminAndMember(t);
  const [recipient] = await t.db
    .insert(recipients)
    .values({
      organizationId: org.id,
      firstName: 'Amara',
      lastName: 'Okafor',
      email: `amara.${crypto.randomUUID()}@example.com`,
      unit: '101',
    })
    .returning();
  const [room] = await t.db.insert(mailrooms).values({ organizationId: org.id, name: 'Lobby' }).returning();
  const [shelf] = await t.db
    .insert(mailroomLocations)
    .values({ organizationId: org.id, mailroomId: room!.id, name: 'Shelf A', type: 'shelf' })
    .returning();
  return { admin, member, org, recipient: recipient!, room: room!, shelf: shelf! };
}

async function addTeams(admin: Client, mailroomId: string | null, url = receiver.url) {
  const res = await admin.post('/api/integrations', {
    name: 'Lobby channel',
    type: 'teams',
    config: { teamsSettings: { webhookUrl: url, mailroomId } },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<IntegrationDto>();
}

async function logItem(admin: Client, body: Record<string, unknown>) {
  const res = await admin.post('/api/mail-items', { type: 'package', sender: 'Acme Books', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>();
}

const teamsJobs = (mailItemId: string) =>
  t.db
    .select()
    .from(notificationJobs)
    .where(and(eq(notificationJobs.mailItemId, mailItemId), eq(notificationJobs.channel, 'teams')));

/** The posts the receiver took for one item (its id is in the card's link). */
const postsFor = (id: string) => receiver.posts.filter((p) => p.body.includes(id));

describe('a Teams integration in Integrations', () => {
  it('is created with its Workflows URL encrypted, answered masked with its host, for one mailroom or all', async () => {
    const { admin, room } = await desk();
    const created = await addTeams(admin, room.id);
    expect(created).toMatchObject({
      type: 'teams',
      config: {
        teamsSettings: { webhookUrl: MASKED_SECRET, webhookHost: new URL(receiver.url).host, mailroomId: room.id },
      },
    });
    const [row] = await t.db.select().from(integrations).where(eq(integrations.id, created.id));
    expect(row!.config.teamsSettings!.webhookUrl).not.toContain('SECRETSIG');
    expect(box.decrypt(row!.config.teamsSettings!.webhookUrl!)).toBe(receiver.url);
    const listed = await admin.get('/api/integrations');
    expect(listed.body).not.toContain('SECRETSIG');
    // An edit that leaves the URL masked keeps it; every mailroom is null.
    const edited = await admin.put(`/api/integrations/${created.id}`, {
      config: { teamsSettings: { webhookUrl: MASKED_SECRET, mailroomId: null } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<IntegrationDto>().config.teamsSettings).toMatchObject({
      mailroomId: null,
      webhookUrl: MASKED_SECRET,
    });
    const [after] = await t.db.select().from(integrations).where(eq(integrations.id, created.id));
    expect(box.decrypt(after!.config.teamsSettings!.webhookUrl!)).toBe(receiver.url);
  });

  it('refuses a missing or malformed URL and a mailroom of another organization with clear 400s, creating nothing', async () => {
    const { admin } = await desk();
    const other = await desk();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, INTEGRATION_MESSAGES.teamsUrl],
      [{ teamsSettings: { webhookUrl: 'not a url' } }, INTEGRATION_MESSAGES.teamsUrl],
      [{ teamsSettings: { webhookUrl: 'ftp://example.com/x' } }, INTEGRATION_MESSAGES.teamsUrl],
      [{ teamsSettings: { webhookUrl: receiver.url, mailroomId: other.room.id } }, INTEGRATION_MESSAGES.teamsMailroom],
    ];
    for (const [config, message] of cases) {
      const res = await admin.post('/api/integrations', { name: 'Teams', type: 'teams', config });
      expect(res.statusCode, JSON.stringify(config)).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(message);
    }
    expect((await admin.get('/api/integrations')).json()).toEqual([]);
  });

  it('is for admins (a member gets 403) and another organization answers 404', async () => {
    const { admin, member, room } = await desk();
    const refused = await member.post('/api/integrations', {
      name: 'Mine',
      type: 'teams',
      config: { teamsSettings: { webhookUrl: receiver.url, mailroomId: room.id } },
    });
    expect(refused.statusCode).toBe(403);
    const theirs = await addTeams(admin, room.id);
    const stranger = await desk();
    for (const [method, url, body] of [
      ['PUT', `/api/integrations/${theirs.id}`, { config: { teamsSettings: { webhookUrl: 'https://example.com/x' } } }],
      ['POST', `/api/integrations/${theirs.id}/test`, {}],
      ['GET', `/api/integrations/${theirs.id}/deliveries`, undefined],
      ['DELETE', `/api/integrations/${theirs.id}`, undefined],
    ] as const) {
      const res = await stranger.admin.request(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const [row] = await t.db.select().from(integrations).where(eq(integrations.id, theirs.id));
    expect(box.decrypt(row!.config.teamsSettings!.webhookUrl!)).toBe(receiver.url);
  });

  it('sends a valid test card from Send test, recorded in the delivery log', async () => {
    const { admin, room } = await desk();
    const teams = await addTeams(admin, room.id);
    const before = receiver.posts.length;
    const res = await admin.post(`/api/integrations/${teams.id}/test`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, responseStatus: 202 });
    expect(receiver.posts.slice(before).map((p) => p.errors)).toEqual([[]]);
    const log = (await admin.get(`/api/integrations/${teams.id}/deliveries`)).json<NotificationMessage[]>();
    expect(log).toMatchObject([{ channel: 'teams', event: 'test', status: 'sent', destination: 'Lobby channel' }]);
  });
});

describe('arrivals and staff events in the channel', () => {
  it('posts an arrival as a valid Adaptive Card naming who, what, from whom, where and when, with a link to the item', async () => {
    const { admin, room, shelf } = await desk();
    const teams = await addTeams(admin, room.id);
    const item = await logItem(admin, { recipientId: (await recipientOf(admin)).id, locationId: shelf.id });
    await drain();
    const posts = postsFor(item.id);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.errors).toEqual([]);
    const card = posts[0]!.card!;
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    const facts = Object.fromEntries(
      (card.body as Array<{ type: string; facts?: Array<{ title: string; value: string }> }>)
        .find((b) => b.type === 'FactSet')!
        .facts!.map((f) => [f.title, f.value]),
    );
    expect(facts).toMatchObject({
      For: 'Amara Okafor (Unit 101)',
      Type: 'Package',
      Sender: 'Acme Books',
      Shelf: 'Shelf A, Lobby',
    });
    expect(facts.Arrived).toMatch(/\d{4}/);
    const [action] = card.actions as Array<{ type: string; url: string }>;
    expect(action).toMatchObject({ type: 'Action.OpenUrl' });
    expect(action!.url).toMatch(new RegExp(`^https?://.+/pending-pickups\\?item=${item.id}$`));

    // On the item's timeline and in the integration's delivery log, named by the channel, never by its URL.
    const timeline = await admin.get(`/api/mail-items/${item.id}/notifications`);
    expect(timeline.body).not.toContain('SECRETSIG');
    expect(timeline.json<NotificationMessage[]>()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          channel: 'teams',
          status: 'sent',
          destination: 'Lobby channel',
          responseStatus: 202,
        }),
      ]),
    );
    const log = (await admin.get(`/api/integrations/${teams.id}/deliveries`)).json<NotificationMessage[]>();
    expect(log).toMatchObject([{ channel: 'teams', event: 'mail_item.created', mailItemId: item.id }]);
  });

  it("posts only to the channel of the item's mailroom (or of every mailroom)", async () => {
    const { admin, org, shelf } = await desk();
    const [annex] = await t.db.insert(mailrooms).values({ organizationId: org.id, name: 'Annex' }).returning();
    const annexOnly = await addTeams(admin, annex!.id);
    const everywhere = await addTeams(admin, null);
    const item = await logItem(admin, { recipientId: (await recipientOf(admin)).id, locationId: shelf.id });
    await drain();
    const jobs = await teamsJobs(item.id);
    expect(jobs.map((j) => j.integrationId)).toEqual([everywhere.id]);
    expect(jobs.map((j) => j.integrationId)).not.toContain(annexOnly.id);
  });

  it('posts a staff card when an item is logged without a recipient', async () => {
    const { admin, room, shelf } = await desk();
    await addTeams(admin, room.id);
    const res = await admin.post('/api/mail-items/needs-recipient', {
      type: 'package',
      trackingNumber: '1Z999AA10123456784',
      courierCompany: 'UPS',
      locationId: shelf.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json<{ id: string }>();
    await drain();
    const [job] = await teamsJobs(item.id);
    expect(job).toMatchObject({ status: 'sent', event: 'mail_item.needs_recipient' });
    const post = receiver.posts.find((p) => p.body.includes('1Z999AA10123456784'))!;
    expect(post.errors).toEqual([]);
    expect(JSON.stringify(post.card)).toContain('Package needs a recipient');
    expect((post.card!.actions as Array<{ url: string }>)[0]!.url).toMatch(/\/needs-recipient$/);
  });

  it('leaves out a recipient who turned Teams off on their page, with the reason on the timeline', async () => {
    const { admin, room, shelf } = await desk();
    await addTeams(admin, room.id);
    // Email reaches them too (an email integration; what it sends is not this test's concern).
    await t.db.insert(integrations).values({
      organizationId: admin.organizationId!,
      name: 'Mail',
      type: 'email',
      config: { emailSettings: { smtpHost: '127.0.0.1', smtpPort: 9 } },
    });
    const recipient = await recipientOf(admin);
    await t.db
      .update(recipients)
      .set({ notifyChannels: ['email'] })
      .where(eq(recipients.id, recipient.id));
    const item = await logItem(admin, { recipientId: recipient.id, locationId: shelf.id });
    await drain();
    expect(await teamsJobs(item.id)).toMatchObject([{ status: 'skipped', skipReason: TEAMS_SKIP_REASONS.notChosen }]);
    expect(postsFor(item.id)).toEqual([]);
  });
});

describe('delivery outcomes', () => {
  it('retries a 5xx through the outbox and sends on the next attempt', async () => {
    const { admin, room, shelf } = await desk();
    await addTeams(admin, room.id);
    let failing = true;
    script = () => (failing ? { status: 503, body: 'flow throttled' } : undefined);
    try {
      const item = await logItem(admin, { recipientId: (await recipientOf(admin)).id, locationId: shelf.id });
      await drain();
      const [job] = await teamsJobs(item.id);
      expect(job).toMatchObject({ status: 'queued', attempts: 1, responseStatus: 503 });
      expect(job!.lastError).toContain('Teams answered 503');
      failing = false;
      await t.db
        .update(notificationJobs)
        .set({ nextAttemptAt: sql`now()` })
        .where(eq(notificationJobs.id, job!.id));
      await drain();
      expect(await teamsJobs(item.id)).toMatchObject([{ status: 'sent', attempts: 2, responseStatus: 202 }]);
    } finally {
      script = () => undefined;
    }
  });

  it('fails a 410 (the flow is gone) at once, without retrying', async () => {
    const { admin, room, shelf } = await desk();
    await addTeams(admin, room.id);
    script = () => ({ status: 410 });
    try {
      const item = await logItem(admin, { recipientId: (await recipientOf(admin)).id, locationId: shelf.id });
      await drain();
      expect(await teamsJobs(item.id)).toMatchObject([{ status: 'failed', attempts: 1, responseStatus: 410 }]);
    } finally {
      script = () => undefined;
    }
  });

  it('the receiver refuses a card that is not valid against the schema (so a broken card fails, never posts)', () => {
    const valid = { type: 'AdaptiveCard', version: '1.4', body: [{ type: 'TextBlock', text: 'Hi' }] };
    expect(cardErrors(valid)).toEqual([]);
    expect(cardErrors({ ...valid, msteams: { width: 'Full' } })).not.toEqual([]);
    expect(cardErrors({ ...valid, actions: [{ type: 'Action.OpenUrl', title: 'Open' }] })).not.toEqual([]);
    expect(cardErrors({ ...valid, body: [{ type: 'TextBlock' }] })).not.toEqual([]);
    expect(cardErrors({ ...valid, body: [{ type: 'FactSet', facts: [{ title: 'For' }] }] })).not.toEqual([]);
  });
});

describe('the SSRF guard (ALLOW_PRIVATE_TARGETS off)', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await createTestApp({ ALLOW_PRIVATE_TARGETS: 'false' });
  });

  it('refuses a private URL on create (400 with the message) and fails a stored one without calling it', async () => {
    const { admin, org } = await adminAndMember(guarded);
    const refused = await admin.post('/api/integrations', {
      name: 'Teams',
      type: 'teams',
      config: { teamsSettings: { webhookUrl: receiver.url } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: INTEGRATION_MESSAGES.teamsPrivate });
    // One stored before the guard (or by hand): the worker refuses it for good, and nothing is posted.
    await guarded.db.insert(integrations).values({
      organizationId: org.id,
      name: 'Inside',
      type: 'teams',
      config: { teamsSettings: { webhookUrl: box.encrypt(receiver.url), mailroomId: null } },
    });
    const [recipient] = await guarded.db
      .insert(recipients)
      .values({ organizationId: org.id, firstName: 'Ines', lastName: 'Moreau', email: 'ines@example.com' })
      .returning();
    const res = await admin.post('/api/mail-items', { type: 'package', recipientId: recipient!.id });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json<{ id: string }>();
    await workers.drain(guarded);
    const [job] = await guarded.db
      .select()
      .from(notificationJobs)
      .where(and(eq(notificationJobs.mailItemId, item.id), eq(notificationJobs.channel, 'teams')));
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job!.lastError).toContain('not a public address');
    expect(postsFor(item.id)).toEqual([]);
  });
});

/** The desk's one recipient. */
async function recipientOf(admin: Client) {
  const [r] = await t.db.select().from(recipients).where(eq(recipients.organizationId, admin.organizationId!));
  return r!;
}
