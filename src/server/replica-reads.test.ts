import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { connectDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { mailItems } from './db/schema';
import { withTenants } from './db/tenant-scope';
import { adminQuery, adminRows } from './test/global-setup';
import { createAppOn, deskWithRecipient, type TestApp } from './test/harness';
import { atFileEnd } from './test/file-cleanups';
import { canMakeClusters, createCluster, createReplica, type PgCluster } from './test/pg-cluster';

/**
 * DATABASE_REPLICA_URL (decision 038): a PostgreSQL 15 cluster of the test's own, migrated, and a
 * streaming replica of it made with pg_basebackup; the app reads History, its statistics, the
 * export and Reports from the replica once it has replayed the caller's organization up to the
 * data version read with the session, else from the primary.
 */
const available = await canMakeClusters();
const ROUNDS = 15;

describe.skipIf(!available)('History and Reports from a streaming replica', () => {
  let primary: PgCluster;
  let replica: PgCluster;
  let t: TestApp;
  beforeAll(async () => {
    // As in production: commits flushed at once (off, WAL reaches the replica up to 200 ms later).
    primary = await createCluster({ synchronous_commit: 'on' });
    // Filed before the app's own cleanup, so run after it (newest first): its pools close first.
    atFileEnd(async () => {
      await replica?.destroy();
      await primary.destroy();
    });
    await adminQuery(primary.url(), 'create database pigeonhole');
    const migrator = connectDatabase(primary.url('pigeonhole'), 1);
    await runMigrations(migrator.db, process.cwd());
    await migrator.close();
    replica = await createReplica(primary);
    // Uncached, so that every read below is a read of the database.
    t = await createAppOn(primary.url('pigeonhole'), {
      DATABASE_REPLICA_URL: replica.url('pigeonhole'),
      CACHE_TTL_MS: '0',
    });
  }, 120_000);

  const onReplica = (text: string) => adminRows(replica.url('pigeonhole'), text);
  const counts = () => t.app.replicaReads.counts();
  /** Until the organization's data version on the primary stays put for 300 ms. */
  async function versionSettled(organizationId: string) {
    const version = async () =>
      (
        await adminRows<{ v: string }>(
          primary.url('pigeonhole'),
          `select coalesce(sum(version), 0)::text as v from organization_data_versions where organization_id = '${organizationId}'`,
        )
      )[0]!.v;
    let last = await version();
    for (let i = 0; i < 50; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const now = await version();
      if (now === last) return;
      last = now;
    }
    throw new Error('the data version kept moving');
  }
  /** Pausing is a request, granted before the next record is replayed: wait until it is. */
  async function pauseReplay() {
    await onReplica('select pg_wal_replay_pause()');
    for (let i = 0; i < 100; i += 1) {
      const [state] = await onReplica('select pg_get_wal_replay_pause_state() as s');
      if (state!.s === 'paused') return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('replay did not pause');
  }

  async function desk() {
    const { admin, org, recipient } = await deskWithRecipient(t);
    const log = async (sender = 'Acme') => {
      const res = await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id, sender });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string }>().id;
    };
    return { admin, org, log };
  }

  it('the replica is in recovery and streaming from the primary', async () => {
    expect((await onReplica('select pg_is_in_recovery() as r'))[0]!.r).toBe(true);
    const senders = await adminRows(primary.url(), 'select count(*)::int as n from pg_stat_replication');
    expect(senders[0]!.n).toBe(1);
  });

  it('a History read right after logging an item sees it, every time, and the replica serves most', async () => {
    const { admin, log } = await desk();
    const before = counts();
    for (let n = 1; n <= ROUNDS; n += 1) {
      await log();
      const history = await admin.get('/api/history');
      expect(history.statusCode, history.body).toBe(200);
      expect(history.json()).toHaveLength(n);
      expect((await admin.get('/api/history/stats')).json()).toMatchObject({ totalItems: n });
      const csv = await admin.get('/api/history/export');
      expect(csv.statusCode).toBe(200);
      expect(csv.body.trim().split('\n')).toHaveLength(n + 1);
      const reports = await admin.get('/api/analytics?range=7');
      expect(reports.statusCode, reports.body).toBe(200);
    }
    const after = counts();
    const reads = after.replica + after.fallback - before.replica - before.fallback;
    expect(reads).toBe(ROUNDS * 4);
    // Replay on loopback takes a few milliseconds: the 200 ms wait covers it.
    expect(after.replica - before.replica).toBeGreaterThanOrEqual(ROUNDS * 3);
  });

  it('the rows really come from the replica: a change it has not replayed is not in them', async () => {
    const { admin, org, log } = await desk();
    const id = await log('Before');
    // What logging sets off in the background (the notification fan-out) settles first: a later
    // write would raise the version and send the read to the primary.
    await versionSettled(org.id);
    // Caught up (the read waits for it), then replay stops.
    expect((await admin.get('/api/history')).json()[0].sender).toBe('Before');
    await pauseReplay();
    try {
      // An operator's change that raises no data version (triggers off): the replica may serve,
      // and what it serves is its own copy, from before the change.
      await adminQuery(
        primary.url('pigeonhole'),
        `set session_replication_role = replica; update mail_items set sender = 'After' where id = '${id}'`,
      );
      const before = counts();
      const page = (await admin.get('/api/history')).json();
      expect(page[0].sender).toBe('Before');
      expect(counts().replica).toBe(before.replica + 1);
      const onPrimary = await adminRows(primary.url('pigeonhole'), `select sender from mail_items where id = '${id}'`);
      expect(onPrimary[0]!.sender).toBe('After');
    } finally {
      await onReplica('select pg_wal_replay_resume()');
    }
  });

  it('with replay paused, a fresh write is read from the primary after a short wait, every time', async () => {
    const { admin, log } = await desk();
    await log();
    await pauseReplay();
    try {
      for (let n = 2; n <= 5; n += 1) {
        await log();
        const before = counts();
        const started = Date.now();
        const history = await admin.get('/api/history');
        const waited = Date.now() - started;
        expect(history.json()).toHaveLength(n);
        expect(counts()).toEqual({ replica: before.replica, fallback: before.fallback + 1 });
        expect(waited).toBeGreaterThanOrEqual(190);
        expect(waited).toBeLessThan(2000);
      }
    } finally {
      await onReplica('select pg_wal_replay_resume()');
    }
    // Replay running again: the replica catches up (the backlog of the pause first) and serves.
    await log();
    const before = counts();
    let served = false;
    for (let i = 0; i < 10 && !served; i += 1) {
      expect((await admin.get('/api/history')).json()).toHaveLength(6);
      served = counts().replica > before.replica;
    }
    expect(served).toBe(true);
  });

  it("another organization's items never appear in reads from the replica", async () => {
    const first = await desk();
    const second = await desk();
    const firstIds = [await first.log('First'), await first.log('First')];
    const secondId = await second.log('Second');
    const before = counts();
    const page = (await second.admin.get('/api/history')).json<Array<{ id: string }>>();
    expect(page.map((r) => r.id)).toEqual([secondId]);
    expect((await second.admin.get('/api/history/stats')).json()).toMatchObject({ totalItems: 1 });
    expect((await second.admin.get(`/api/history?search=First`)).json()).toHaveLength(0);
    expect(counts().replica).toBeGreaterThan(before.replica);
    // The replica's pool is under row-level security as well: a statement with no organization
    // filter, scoped to the second organization, sees its item only.
    const replicaDb = await t.app.replicaReads.pick({
      userId: '00000000-0000-0000-0000-000000000000',
      organizationId: second.org.id,
      role: 'member',
      dataVersion: '0',
    });
    expect(replicaDb).not.toBe(t.db);
    const rows = await withTenants([second.org.id], async () =>
      replicaDb
        .select({ id: mailItems.id })
        .from(mailItems)
        .where(sql`true`),
    );
    expect(rows.map((r) => r.id)).toEqual([secondId]);
    expect(rows.map((r) => r.id)).not.toContain(firstIds[0]);
  });

  it('a replica that is down is a fallback, not an error', async () => {
    const { admin, log } = await desk();
    await log();
    await replica.stop();
    try {
      const before = counts();
      const history = await admin.get('/api/history');
      expect(history.statusCode, history.body).toBe(200);
      expect(history.json()).toHaveLength(1);
      expect(counts().fallback).toBe(before.fallback + 1);
    } finally {
      await replica.start();
    }
  });
});

describe.skipIf(available)('History and Reports from a streaming replica', () => {
  it('is skipped: no PostgreSQL binaries to make clusters with (PG_BIN)', () => {
    expect(available).toBe(false);
  });
});
