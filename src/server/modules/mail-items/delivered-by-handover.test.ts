import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DELIVERED_BY_HANDOVER_ONLY } from '../../../contract';
import { mailItemHistory, notificationJobs } from '../../db/schema';
import { handedOver } from '../../test/hand-over';
import { Client, createTestApp, type TestApp } from '../../test/harness';
import * as transitions from './transitions';

/**
 * Issue 42, section 1 (decision 053): every path that ends in "delivered" goes through the one
 * hand-over (POST /api/handovers), which records who collected, how they were identified and the
 * proof. No other route, and no other code, sets status delivered.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../..');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

/** The server's source files (tests left out), relative to src/server. */
function sourceFiles(dir = serverRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path.relative(serverRoot, full)] : [];
  });
}
const read = (file: string) => readFileSync(path.join(serverRoot, file), 'utf8');

type Item = { id: string; status: string; revision: number; deliveredAt: string | null; handoverId: string | null };

async function desk() {
  const admin = new Client(t);
  await admin.register();
  const org = await admin.createOrganization('Harbor View');
  const recipient = (await admin.post('/api/recipients', { firstName: 'Amara', lastName: 'Okafor' })).json<{
    id: string;
  }>();
  const item = (await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id })).json<Item>();
  return { admin, org, recipient, item };
}

/** What a write leaves behind: history rows and outbox events of the organization. */
async function written(organizationId: string) {
  const [history] = await t.db
    .select({ n: count() })
    .from(mailItemHistory)
    .where(eq(mailItemHistory.organizationId, organizationId));
  const [events] = await t.db
    .select({ n: count() })
    .from(notificationJobs)
    .where(and(eq(notificationJobs.organizationId, organizationId), eq(notificationJobs.channel, 'event')));
  return { history: history!.n, events: events!.n };
}

/** The mail item write routes of the OpenAPI document: a new one must be added to the sweep below. */
function mailItemWriteRoutes() {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([url]) => url.startsWith('/api/mail-items') || url.startsWith('/api/handovers'))
    .flatMap(([url, ops]) =>
      Object.keys(ops)
        .filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => `${m.toUpperCase()} ${url}`),
    )
    .sort();
}

describe('status delivered, only through the hand-over (decision 053)', () => {
  it('knows every mail item write route', () => {
    expect(mailItemWriteRoutes()).toEqual(
      [
        'POST /api/handovers',
        'POST /api/mail-items',
        'POST /api/mail-items/needs-recipient',
        'POST /api/mail-items/{id}/resolve',
        'PUT /api/mail-items/{id}',
        'POST /api/mail-items/{id}/delete',
        'DELETE /api/mail-items/{id}',
      ].sort(),
    );
  });

  it('refuses status delivered on the edit, in any spelling, with or without If-Match or Idempotency-Key, and writes nothing', async () => {
    const { admin, org, item } = await desk();
    const before = await written(org.id);
    const tries: Array<[object, Record<string, string>]> = [
      [{ status: 'delivered' }, {}],
      [{ status: 'Delivered' }, {}],
      [{ status: ' DELIVERED ' }, {}],
      [{ status: 'delivered', collectorName: 'Ada Lovelace' }, {}],
      [{ status: 'delivered', sender: 'Acme' }, { 'if-match': `"${item.revision}"` }],
      [{ status: 'delivered' }, { 'idempotency-key': 'deliver-by-edit' }],
    ];
    for (const [body, headers] of tries) {
      const res = await admin.request('PUT', `/api/mail-items/${item.id}`, body, headers);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ message: DELIVERED_BY_HANDOVER_ONLY, code: 'delivered_by_handover_only' });
    }
    expect((await admin.get(`/api/mail-items/${item.id}`)).json<Item>()).toMatchObject({
      status: 'pending',
      revision: item.revision,
      deliveredAt: null,
      handoverId: null,
    });
    expect(await written(org.id)).toEqual(before);
  });

  it('has no PATCH and no other status route; the intake routes never start an item delivered', async () => {
    const { admin, recipient, item } = await desk();
    expect((await admin.patch(`/api/mail-items/${item.id}`, { status: 'delivered' })).statusCode).toBe(404);
    expect((await admin.post(`/api/mail-items/${item.id}/status`, { status: 'delivered' })).statusCode).toBe(404);
    // A status sent with an intake or a resolution is refused (unknown field) or ignored: never delivered.
    const outcome = (res: { statusCode: number; json: <T>() => T }) =>
      res.statusCode >= 400 ? 'refused' : res.json<Item>().status;
    const logged = await admin.post('/api/mail-items', {
      type: 'package',
      recipientId: recipient.id,
      status: 'delivered',
    });
    expect(['refused', 'pending']).toContain(outcome(logged));
    const waiting = await admin.post('/api/mail-items/needs-recipient', { type: 'package', status: 'delivered' });
    expect(['refused', 'needs_recipient']).toContain(outcome(waiting));
    const unresolved = (await admin.post('/api/mail-items/needs-recipient', { type: 'package' })).json<Item>();
    const resolved = await admin.post(`/api/mail-items/${unresolved.id}/resolve`, {
      recipientId: recipient.id,
      status: 'delivered',
    });
    expect(['refused', 'pending']).toContain(outcome(resolved));
    const statuses = (await admin.get('/api/mail-items')).json<Item[]>().map((i) => i.status);
    expect(statuses).not.toContain('delivered');
  });

  it('hands over through POST /api/handovers, and an item so delivered still refuses the edit to delivered', async () => {
    const { admin, item } = await desk();
    const proof = await handedOver(admin, item.id, { collectorName: 'Amara Okafor' });
    expect((await admin.get(`/api/mail-items/${item.id}`)).json<Item>()).toMatchObject({
      status: 'delivered',
      handoverId: proof.id,
    });
    // Back to pending by an edit is allowed (a mistake undone); delivered again only by a hand-over.
    expect((await admin.put(`/api/mail-items/${item.id}`, { status: 'pending' })).statusCode).toBe(200);
    expect((await admin.put(`/api/mail-items/${item.id}`, { status: 'delivered' })).statusCode).toBe(400);
    await handedOver(admin, item.id, { collectorName: 'Amara Okafor' });
  });

  it('the rule refuses an edit to delivered whatever calls it', () => {
    const before = { status: 'notified' } as Parameters<typeof transitions.edit>[0];
    const refused = transitions.edit(
      before,
      { fields: {}, status: 'delivered' },
      { actor: 'u', at: new Date(), allowEditAfterDelivery: true },
    );
    expect(refused).toEqual(transitions.DELIVERED_BY_HANDOVER);
  });

  it('no code but the hand-over asks for status delivered (a scan of the server source)', () => {
    // Writing delivered as a value: `status: 'delivered'`, `status = 'delivered'` in an update's
    // set, or the DELIVERED constant handed to changeStatus.
    const literal = /status['"]?\s*:\s*(['"`])delivered\1|\bset\b[^;]*?\bstatus\s*=\s*'delivered'/i;
    const byConstant = /changeStatus\([^)]*\bDELIVERED\b/;
    const setting = sourceFiles().filter((file) => literal.test(read(file)) || byConstant.test(read(file)));
    // transitions.ts: handOver, the one rule that reaches delivered; the demo seed writes a made-up
    // past (two items delivered yesterday) directly, as it writes their history.
    expect(setting.sort()).toEqual(['modules/demo/demo-seed.ts', 'modules/mail-items/transitions.ts']);
    expect(read('modules/mail-items/transitions.ts').match(/changeStatus\([^)]*\bDELIVERED\b/g)).toHaveLength(1);
    // ... and handOver is called by the hand-over service alone.
    const callers = sourceFiles().filter((file) => /transitions\.handOver\(/.test(read(file)));
    expect(callers).toEqual(['modules/mail-items/handovers.service.ts']);
  });
});
