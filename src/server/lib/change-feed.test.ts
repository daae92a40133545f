import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { createChangeFeed, MAX_MESSAGE_BYTES, type ChangeFeed } from './change-feed';

let t: TestApp;
let one: ChangeFeed;
let two: ChangeFeed;
const poll = { timeout: 2_000, interval: 10 };

beforeAll(async () => {
  t = await createTestApp();
  one = createChangeFeed({ db: t.db, log: t.app.log });
  two = createChangeFeed({ db: t.db, log: t.app.log });
  await Promise.all([one.start(), two.start()]);
});
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
});

/** What `feed` hears of `kind`, as it arrives. */
function heard(feed: ChangeFeed, kind: string) {
  const payloads: unknown[] = [];
  const stop = feed.subscribe(kind, (p) => payloads.push(p));
  return { payloads, stop };
}

describe('the change feed', () => {
  it('carries a message to the other instances and not back to its sender', async () => {
    expect(one.listening && two.listening).toBe(true);
    const atOne = heard(one, 'test.hello');
    const atTwo = heard(two, 'test.hello');
    const otherKind = heard(two, 'test.other');

    await one.publish('test.hello', { n: 1 });
    await two.publish('test.hello', { n: 2 });

    await expect.poll(() => atTwo.payloads, poll).toEqual([{ n: 1 }]);
    await expect.poll(() => atOne.payloads, poll).toEqual([{ n: 2 }]);
    expect(otherKind.payloads).toEqual([]);
    atOne.stop();
    atTwo.stop();
    otherKind.stop();
  });

  it('counts what it receives and measures each message from its sent-at time', async () => {
    const lags: [number, string][] = [];
    two.observeLag((lagMs, kind) => lags.push([lagMs, kind]));
    const before = two.stats.received;
    const atTwo = heard(two, 'test.lag');
    const sentFrom = Date.now();
    await one.publish('test.lag', 'timed');
    await expect.poll(() => atTwo.payloads, poll).toEqual(['timed']);
    const elapsed = Date.now() - sentFrom;
    expect(two.stats.received).toBe(before + 1);
    expect(lags).toHaveLength(1);
    expect(lags[0]![1]).toBe('test.lag');
    expect(lags[0]![0]).toBeGreaterThanOrEqual(0);
    expect(lags[0]![0]).toBeLessThanOrEqual(elapsed);
    // Its own messages are neither counted nor measured.
    const own = two.stats.received;
    await two.publish('test.lag', 'own');
    await new Promise((r) => setTimeout(r, 50));
    expect(two.stats.received).toBe(own);
    expect(lags).toHaveLength(1);
    atTwo.stop();
  });

  it('sends with a transaction only when it commits', async () => {
    const atTwo = heard(two, 'test.tx');
    await expect(
      t.db.transaction(async (tx) => {
        await one.publish('test.tx', 'rolled back', tx);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await t.db.transaction(async (tx) => {
      await one.publish('test.tx', 'committed', tx);
      // Not before the commit.
      await new Promise((r) => setTimeout(r, 50));
      expect(atTwo.payloads).toEqual([]);
    });
    await expect.poll(() => atTwo.payloads, poll).toEqual(['committed']);
    atTwo.stop();
  });

  it('refuses a message PostgreSQL could not carry, and skips what it cannot read', async () => {
    await expect(one.publish('test.big', 'x'.repeat(MAX_MESSAGE_BYTES))).rejects.toThrow(/over the limit/);
    const atTwo = heard(two, 'test.after');
    await t.pool.query(`select pg_notify('pigeonhole_changes', 'not json')`);
    await one.publish('test.after', 'still listening');
    await expect.poll(() => atTwo.payloads, poll).toEqual(['still listening']);
    atTwo.stop();
  });

  it('reconnects after losing its connection, and says when it stopped and started listening', async () => {
    const feed = createChangeFeed({ db: t.db, log: t.app.log, reconnect: { minMs: 20, maxMs: 200 } });
    const states: boolean[] = [];
    feed.onListening((listening) => states.push(listening));
    await feed.start();
    try {
      await t.asOwner(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'pigeonhole-change-feed:${feed.instanceId}'`,
      );
      await expect.poll(() => states, poll).toEqual([true, false, true]);
      expect(feed.stats.reconnects).toBe(1);
      const atFeed = heard(feed, 'test.back');
      await one.publish('test.back', 'heard again');
      await expect.poll(() => atFeed.payloads, poll).toEqual(['heard again']);
    } finally {
      await feed.close();
    }
  });
});
