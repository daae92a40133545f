import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RosterPreview, RosterRun, RosterSource } from '../../../contract';
import { auditLog, notificationJobs, recipientSessions, recipients, rosterSources } from '../../db/schema';
import {
  type Client,
  createSecondInstance,
  joinAs,
  signUpWithOrganization,
  TEST_SECRETS_KEY,
  type TestApp,
} from '../../test/harness';
import { createSecretBox } from '../../lib/secrets';
import { createTestAppWithSmtp, type TestSmtp } from '../../test/smtp';
import { startSlackApiServer, type SlackApiServer } from '../../test/slack-api-server';
import { testWorkers } from '../../test/notification-workers';
import { hashToken, newToken } from '../../lib/tokens';
import { fetchRoster, RosterFetchError } from './roster.fetch';

/**
 * The resident roster (issue 43 section 3, decision 061) against a real HTTP server on loopback
 * serving CSV files, a real PostgreSQL, and the outbox's real worker and SMTP server for the
 * admins' email. SFTP is roster.sftp.test.ts's (the machine's OpenSSH server).
 */

let t: TestApp;
let smtp: TestSmtp;
/** The staff channel of a Slack workspace hears of a failed run too (decision 064). */
let slack: SlackApiServer;
const workers = testWorkers();
afterAll(() => slack?.close());

/** Files by path; a path set to a number answers that status. */
const files = new Map<string, string | number>();
const seenAuth = new Map<string, string | undefined>();
let base = '';

beforeAll(async () => {
  slack = await startSlackApiServer();
  ({ t, smtp } = await createTestAppWithSmtp({ SLACK_API_URL: slack.url }));
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    seenAuth.set(path, req.headers['x-roster-key'] as string | undefined);
    const file = files.get(path);
    if (file === undefined) return res.writeHead(404).end('not found');
    if (typeof file === 'number') return res.writeHead(file).end('nope');
    res.writeHead(200, { 'content-type': 'text/csv' }).end(file);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
});

let seq = 0;
type Person = { id: string; first: string; last: string; unit?: string; email?: string };
const csv = (people: Person[], header = 'Resident ID,First,Last,Apt,E-mail') =>
  [header, ...people.map((p) => [p.id, p.first, p.last, p.unit ?? '', p.email ?? ''].join(','))].join('\n');
const MAPPING = { externalId: 'Resident ID', firstName: 'First', lastName: 'Last', unit: 'Apt', email: 'E-mail' };

/** People of a building: n residents, ids r1..rn, each in their own unit. */
const building = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => ({
    id: `r${i + 1}`,
    first: `Res${i + 1}`,
    last: tag,
    unit: `${100 + i}`,
    email: `r${i + 1}.${tag}@example.com`,
  }));

/** An admin, an organization, and its roster source serving `people` at a path of its own. */
async function setUp(people: Person[], extra: Record<string, unknown> = {}) {
  const { client: admin, org, account } = await signUpWithOrganization(t, `Roster ${++seq}`);
  const path = `/roster-${seq}.csv`;
  files.set(path, csv(people));
  const res = await admin.post('/api/roster/sources', {
    kind: 'https',
    url: `${base}${path}`,
    headerName: 'X-Roster-Key',
    headerValue: 'sesame',
    mapping: MAPPING,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { admin, org, account, path, source: res.json<RosterSource>() };
}

async function runNow(admin: Client, sourceId: string) {
  const res = await admin.post(`/api/roster/sources/${sourceId}/run`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RosterRun>();
}

async function approve(admin: Client, runId: string) {
  const res = await admin.post(`/api/roster/runs/${runId}/approve`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RosterRun>();
}

/** Runs and approves the first run (which always waits). */
async function firstRun(admin: Client, sourceId: string) {
  const run = await runNow(admin, sourceId);
  expect(run.status).toBe('awaiting_approval');
  return approve(admin, run.id);
}

const rosterOf = (organizationId: string) =>
  t.db
    .select()
    .from(recipients)
    .where(and(eq(recipients.organizationId, organizationId), eq(recipients.managedBy, 'roster')));
const byExternal = async (organizationId: string, externalId: string) =>
  (await rosterOf(organizationId)).find((r) => r.externalId === externalId);

describe('a run from an HTTPS source', () => {
  it('fetches with the header, waits on the first run, and approving adds the residents', async () => {
    const people = building(5, 'first');
    const { admin, org, path, source } = await setUp(people);
    expect(source).toMatchObject({
      kind: 'https',
      headerName: 'X-Roster-Key',
      hasSecret: true,
      graceDays: 14,
      approvalShare: 10,
    });
    expect(JSON.stringify(source)).not.toContain('sesame');
    const stored = (await t.db.select().from(rosterSources).where(eq(rosterSources.id, source.id)))[0]!;
    expect(stored.secret).toMatch(/^enc:v1:/);

    const run = await runNow(admin, source.id);
    expect(seenAuth.get(path)).toBe('sesame');
    expect(run).toMatchObject({
      status: 'awaiting_approval',
      counts: { added: 5, changed: 0, moved: 0, left: 0, errors: 0 },
    });
    expect(await rosterOf(org.id)).toHaveLength(0);

    const preview = (await admin.get(`/api/roster/runs/${run.id}/preview`)).json<RosterPreview>();
    expect(preview.reason).toBe('first_run');
    expect(preview.added.map((p) => p.externalId).sort()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);

    const applied = await approve(admin, run.id);
    expect(applied.status).toBe('applied');
    const rows = await rosterOf(org.id);
    expect(rows).toHaveLength(5);
    expect(rows.find((r) => r.externalId === 'r2')).toMatchObject({
      firstName: 'Res2',
      unit: '101',
      isActive: true,
      leftAt: null,
    });
    // Approving again: it is no longer waiting.
    expect((await admin.post(`/api/roster/runs/${run.id}/approve`)).statusCode).toBe(409);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, org.id), eq(auditLog.action, 'roster.run_approved')));
    expect(audit).toHaveLength(1);
  });

  it('diffs the next run: added, changed, moved, left, unchanged, and row errors', async () => {
    const people = building(20, 'diff');
    const { admin, org, path, source } = await setUp(people, { approvalShare: 10 });
    await firstRun(admin, source.id);
    const next = [
      ...people
        .slice(0, 18)
        .map((p) => (p.id === 'r1' ? { ...p, first: 'Renamed' } : p.id === 'r2' ? { ...p, unit: '999' } : p)),
      // r19 and r20 left (2 of 20 = 10 %: not more than the share)
      { id: 'r21', first: 'New', last: 'Comer', unit: '300', email: 'new.comer@example.com' },
      { id: '', first: 'No', last: 'Id' },
      { id: 'r22', first: '', last: 'Nameless' },
    ];
    files.set(path, csv(next));
    const run = await runNow(admin, source.id);
    expect(run.status).toBe('applied');
    expect(run.counts).toEqual({ added: 1, changed: 1, moved: 1, left: 2, unchanged: 16, errors: 2 });
    expect(run.rowErrors.map((e) => e.line)).toEqual([21, 22]);
    expect(run.rowErrors[0]!.messages).toContain('The id column is empty');

    expect(await byExternal(org.id, 'r1')).toMatchObject({ firstName: 'Renamed' });
    expect(await byExternal(org.id, 'r2')).toMatchObject({ unit: '999' });
    expect(await byExternal(org.id, 'r21')).toMatchObject({ firstName: 'New', isActive: true });
    const gone = await byExternal(org.id, 'r19');
    expect(gone!.leftAt).not.toBeNull();
    expect(gone!.isActive).toBe(true); // until the grace period ends

    const runs = (await admin.get(`/api/roster/runs?sourceId=${source.id}&limit=1`)).json<{
      runs: RosterRun[];
      total: number;
    }>();
    expect(runs.total).toBe(2);
    expect(runs.runs).toHaveLength(1);
    expect(runs.runs[0]!.id).toBe(run.id);
  });

  it('waits for approval when more than the share would leave, and rejecting changes nothing', async () => {
    const people = building(10, 'share');
    const { admin, org, path, source } = await setUp(people, { approvalShare: 10 });
    await firstRun(admin, source.id);
    files.set(path, csv(people.slice(0, 8))); // 2 of 10 = 20 % > 10 %
    const run = await runNow(admin, source.id);
    expect(run).toMatchObject({ status: 'awaiting_approval', counts: { left: 2 } });
    const preview = (await admin.get(`/api/roster/runs/${run.id}/preview`)).json<RosterPreview>();
    expect(preview.reason).toBe('share_left');
    expect(preview.left.map((p) => p.externalId).sort()).toEqual(['r10', 'r9']);
    expect((await rosterOf(org.id)).filter((r) => r.leftAt !== null)).toHaveLength(0);

    const rejected = await admin.post(`/api/roster/runs/${run.id}/reject`);
    expect(rejected.json<RosterRun>().status).toBe('rejected');
    expect((await rosterOf(org.id)).filter((r) => r.leftAt !== null)).toHaveLength(0);
    expect((await admin.post(`/api/roster/runs/${run.id}/approve`)).statusCode).toBe(409);
  });

  it('adopts a recipient typed by hand with the same email instead of adding a second one', async () => {
    const people = building(3, 'adopt');
    const { admin, org, source } = await setUp(people);
    const typed = await admin.post('/api/recipients', {
      firstName: 'Res2',
      lastName: 'Typed',
      email: 'R2.adopt@example.com',
    });
    expect(typed.statusCode).toBe(201);
    const run = await runNow(admin, source.id);
    const preview = (await admin.get(`/api/roster/runs/${run.id}/preview`)).json<RosterPreview>();
    expect(preview.added.find((p) => p.externalId === 'r2')!.adoptsRecipientId).toBe(typed.json<{ id: string }>().id);
    await approve(admin, run.id);
    const all = await t.db.select().from(recipients).where(eq(recipients.organizationId, org.id));
    expect(all).toHaveLength(3);
    expect(all.find((r) => r.id === typed.json<{ id: string }>().id)).toMatchObject({
      managedBy: 'roster',
      externalId: 'r2',
      lastName: 'adopt',
    });
  });

  it('deactivates those who left after the grace period (their page sessions end), and restores a comeback', async () => {
    const people = building(30, 'grace');
    const { admin, org, path, source } = await setUp(people, { graceDays: 14 });
    await firstRun(admin, source.id);
    files.set(path, csv(people.slice(0, 28))); // r29, r30 leave
    expect((await runNow(admin, source.id)).counts.left).toBe(2);
    const r29 = (await byExternal(org.id, 'r29'))!;
    const r30 = (await byExternal(org.id, 'r30'))!;
    // r29 has its page open.
    await t.db.insert(recipientSessions).values({
      sid: hashToken(newToken()),
      organizationId: org.id,
      recipientId: r29.id,
      expire: new Date(Date.now() + 86_400_000),
    } as typeof recipientSessions.$inferInsert);

    // Within grace, nothing is deactivated.
    expect(await t.app.roster.sweep()).toBe(0);
    // r30 comes back within grace: restored.
    files.set(path, csv([...people.slice(0, 28), people[29]!]));
    const back = await runNow(admin, source.id);
    expect(back.counts).toMatchObject({ changed: 1, left: 0 });
    expect(await byExternal(org.id, 'r30')).toMatchObject({ leftAt: null, isActive: true });

    // 15 days later for r29: the sweep deactivates them and ends their page.
    await t.db
      .update(recipients)
      .set({ leftAt: new Date(Date.now() - 15 * 86_400_000) })
      .where(eq(recipients.id, r29.id));
    expect(await t.app.roster.sweep()).toBe(1);
    expect(await byExternal(org.id, 'r29')).toMatchObject({ isActive: false });
    expect(await t.db.select().from(recipientSessions).where(eq(recipientSessions.recipientId, r29.id))).toHaveLength(
      0,
    );
    expect(await t.app.roster.sweep()).toBe(0);
    expect(r30.id).toBeTruthy();
  });
});

describe('the schedule', () => {
  it('runs a due source once across two instances ticking at the same moment', async () => {
    const { admin, org, source } = await setUp(building(4, 'twice'));
    await firstRun(admin, source.id);
    const other = await createSecondInstance(t);
    await t.db
      .update(rosterSources)
      .set({ nextRunAt: new Date(Date.now() - 1000) })
      .where(eq(rosterSources.id, source.id));
    const [a, b] = await Promise.all([t.app.roster.tick(), other.app.roster.tick()]);
    const mine = [...a, ...b].filter((r) => r.sourceId === source.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'applied', trigger: 'schedule', counts: { unchanged: 4 } });
    const after = (await t.db.select().from(rosterSources).where(eq(rosterSources.id, source.id)))[0]!;
    expect(after.runningUntil).toBeNull();
    expect(after.nextRunAt!.getTime()).toBeGreaterThan(Date.now());
    expect(org.id).toBeTruthy();
  });

  it('retries a failed fetch 3 times with backoff, then emails the admins and tells the Slack staff channel', async () => {
    const { admin, org, account, path, source } = await setUp(building(2, 'fail'));
    const ws = slack.addWorkspace();
    const connected = await admin.post('/api/integrations', {
      name: 'Slack',
      type: 'slack',
      config: { slackSettings: { botToken: ws.token, staffChannelId: 'C0FRONTDSK', staffChannelName: 'front-desk' } },
    });
    expect(connected.statusCode, connected.body).toBe(201);
    await firstRun(admin, source.id);
    files.set(path, 503);
    const due = () =>
      t.db
        .update(rosterSources)
        .set({ nextRunAt: new Date(Date.now() - 1000) })
        .where(eq(rosterSources.id, source.id));
    const attempts: RosterRun[] = [];
    for (let i = 0; i < 3; i++) {
      await due();
      const made = (await t.app.roster.tick()).filter((r) => r.sourceId === source.id);
      expect(made).toHaveLength(1);
      attempts.push(made[0]!);
      const row = (await t.db.select().from(rosterSources).where(eq(rosterSources.id, source.id)))[0]!;
      if (i < 2) {
        // backed off: due again in a minute, then five
        expect(row.failedAttempts).toBe(i + 1);
        expect(row.nextRunAt!.getTime() - Date.now()).toBeGreaterThan(i === 0 ? 50_000 : 290_000);
      } else {
        expect(row.failedAttempts).toBe(0);
      }
    }
    expect(attempts.map((r) => [r.status, r.attempt])).toEqual([
      ['failed', 1],
      ['failed', 2],
      ['failed', 3],
    ]);
    expect(attempts[2]!.errorText).toBe('The roster server answered 503');
    const jobs = await t.db
      .select()
      .from(notificationJobs)
      .where(
        and(eq(notificationJobs.organizationId, org.id), sql`${notificationJobs.payload}->>'kind' = 'roster_failed'`),
      );
    expect(jobs.map((j) => j.destination)).toEqual([account.email]);
    await workers.drain(t);
    const mail = await smtp.waitFor(account.email, { subject: /roster/ });
    expect(mail.text).toContain('after 3 tries');
    expect(mail.text).toContain('503');
    const staff = slack.posted.filter((m) => m.token === ws.token && m.channel === 'C0FRONTDSK');
    expect(staff).toHaveLength(1);
    expect(staff[0]!.text).toMatch(
      /^The resident roster could not be updated from .* after 3 tries: The roster server answered 503/,
    );
  });
});

describe('fetching', () => {
  it('refuses loopback targets without ALLOW_PRIVATE_TARGETS, and files above the cap', async () => {
    files.set('/big.csv', 'x'.repeat(5000));
    await expect(
      fetchRoster(
        { kind: 'https', url: `${base}/big.csv`, headerName: null, headerValue: null },
        { allowPrivateTargets: false },
      ),
    ).rejects.toThrow(/not a public address/);
    await expect(
      fetchRoster(
        { kind: 'https', url: `${base}/big.csv`, headerName: null, headerValue: null },
        { allowPrivateTargets: true, maxBytes: 1000 },
      ),
    ).rejects.toBeInstanceOf(RosterFetchError);
  });

  it('records a file the mapping cannot read as a failed run', async () => {
    const { admin, path, source } = await setUp(building(2, 'badfile'));
    files.set(path, 'Some,Other,Header\n1,2,3');
    const run = await runNow(admin, source.id);
    expect(run.status).toBe('failed');
    expect(run.errorText).toMatch(/no column .*"Resident ID".* of the saved mapping/);
  });
});

describe('the routes', () => {
  const valid = () => ({ kind: 'https', url: `${base}/v.csv`, mapping: MAPPING });

  it('validates the source with clear messages and writes nothing', async () => {
    const { client: admin, org } = await signUpWithOrganization(t, 'Roster validation');
    const cases: Array<[unknown, RegExp]> = [
      [{ ...valid(), kind: 'ftp' }, /kind is 'https' or 'sftp'/],
      [{ ...valid(), url: 'not a url' }, /valid URL/],
      [{ ...valid(), mapping: { firstName: 'F', lastName: 'L' } }, /externalId/],
      [{ ...valid(), schedule: '61 * * * *' }, /cron expression/],
      [{ ...valid(), approvalShare: 150 }, /between 0 and 100/],
      [{ ...valid(), headerValue: 'x' }, /header name/],
      [
        {
          kind: 'sftp',
          host: 'sftp.example.com',
          path: '/r.csv',
          username: 'u',
          sftpAuth: 'password',
          mapping: MAPPING,
        },
        /password or private key/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/api/roster/sources', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(JSON.stringify(res.json())).toMatch(message);
    }
    expect(await t.db.select().from(rosterSources).where(eq(rosterSources.organizationId, org.id))).toHaveLength(0);
  });

  it('refuses http URLs in production settings', async () => {
    const strict = await createSecondInstance(t, { ALLOW_PRIVATE_TARGETS: 'false' });
    const { client: admin } = await signUpWithOrganization(t, 'Roster strict');
    const res = await admin.on(strict).post('/api/roster/sources', valid());
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe('The roster URL must use HTTPS');
  });

  it('answers members 403 and another organization 404, and keeps one source per organization', async () => {
    const { admin, org, source } = await setUp(building(2, 'roles'));
    const { client: member } = await joinAs(t, org.id, 'member');
    expect((await member.get('/api/roster/sources')).statusCode).toBe(403);
    expect((await member.post(`/api/roster/sources/${source.id}/run`)).statusCode).toBe(403);
    const run = await runNow(admin, source.id);

    const { client: stranger } = await signUpWithOrganization(t, 'Elsewhere');
    expect((await stranger.post(`/api/roster/sources/${source.id}/run`)).statusCode).toBe(404);
    expect((await stranger.put(`/api/roster/sources/${source.id}`, valid())).statusCode).toBe(404);
    expect((await stranger.delete(`/api/roster/sources/${source.id}`)).statusCode).toBe(404);
    expect((await stranger.get(`/api/roster/runs/${run.id}/preview`)).statusCode).toBe(404);
    expect((await stranger.post(`/api/roster/runs/${run.id}/approve`)).statusCode).toBe(404);
    expect((await stranger.post(`/api/roster/runs/${run.id}/reject`)).statusCode).toBe(404);
    expect((await stranger.get('/api/roster/runs')).json<{ total: number }>().total).toBe(0);

    expect((await admin.post('/api/roster/sources', valid())).statusCode).toBe(409);
    // An update keeps the stored secret when none is sent; the audit never holds it.
    const updated = await admin.put(`/api/roster/sources/${source.id}`, {
      ...valid(),
      url: `${base}/other.csv`,
      headerName: 'X-Roster-Key',
      graceDays: 30,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<RosterSource>()).toMatchObject({ hasSecret: true, graceDays: 30 });
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.organizationId, org.id));
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(['roster.source_created', 'roster.source_updated', 'roster.run_started']),
    );
    expect(JSON.stringify(entries)).not.toContain('sesame');
    expect((await admin.delete(`/api/roster/sources/${source.id}`)).statusCode).toBe(204);
    expect((await admin.get('/api/roster/sources')).json()).toEqual([]);
  });
});

// Last in the file: the rotation re-encrypts every source on the database with a key the main
// instance does not hold.
describe('SECRETS_KEY rotation', () => {
  it("re-encrypts the source's header value once with the new key, and the next run still sends it", async () => {
    const { path, source } = await setUp(building(2, 'rotation'));
    const read = async () =>
      (await t.db.select().from(rosterSources).where(eq(rosterSources.id, source.id)))[0]!.secret!;
    const before = await read();
    const NEW_KEY = Buffer.alloc(32, 9).toString('base64');
    const newBox = createSecretBox(Buffer.from(NEW_KEY, 'base64'));
    expect(() => newBox.decrypt(before)).toThrow(/cannot be read/);

    const rotating = await createSecondInstance(t, { SECRETS_KEY: NEW_KEY, SECRETS_KEY_PREVIOUS: TEST_SECRETS_KEY });
    const first = await rotating.app.reencryptSecrets();
    expect(first.unreadable).toBe(0);
    expect(first.reencrypted).toBeGreaterThanOrEqual(1); // this source, and earlier tests' sources
    expect(await rotating.app.reencryptSecrets()).toEqual({ reencrypted: 0, unreadable: 0 });
    const after = await read();
    expect(after).not.toBe(before);
    expect(newBox.decrypt(after)).toBe('sesame');

    // An instance with only the new key fetches with the same header as before.
    const rotated = await createSecondInstance(t, { SECRETS_KEY: NEW_KEY });
    seenAuth.delete(path);
    await t.db
      .update(rosterSources)
      .set({ nextRunAt: new Date(Date.now() - 1000) })
      .where(eq(rosterSources.id, source.id));
    const made = (await rotated.app.roster.tick()).filter((r) => r.sourceId === source.id);
    expect(made).toMatchObject([{ status: 'awaiting_approval', counts: { added: 2 } }]);
    expect(seenAuth.get(path)).toBe('sesame');
  });
});
