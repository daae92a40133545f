import { describe, expect, it } from 'vitest';
import {
  OUTBOX_MAX_TRIES,
  backoffMs,
  runOutbox,
  verdict,
  type Outcome,
  type OutboxPort,
  type PolicyEntry,
} from './outboxPolicy';

/**
 * Issue 41 item 3 (decision 048): the intake outbox with one item the server keeps failing on.
 * Before, every 5xx kept the item at the head of the line for ever and the items after it waited.
 */

type Entry = PolicyEntry & { failed?: boolean };

/** The outbox's store and the network in memory: `answer` says what the server does with a key. */
function memoryOutbox(keys: string[], answer: (key: string) => Outcome | 'ok') {
  let clock = 1_000_000;
  const store = new Map<string, Entry>(keys.map((key, i) => [key, { key, queuedAt: i, refused: null }]));
  const sentKeys: string[] = [];
  const tries: string[] = [];
  const port: OutboxPort<Entry> = {
    waiting: async () => [...store.values()].filter((e) => !e.refused).sort((a, b) => a.queuedAt - b.queuedAt),
    send: async (entry) => {
      tries.push(entry.key);
      const a = answer(entry.key);
      if (a !== 'ok') throw a;
    },
    outcome: (err) => err as Outcome,
    offline: () => false,
    now: () => clock,
    sent: async (entry) => {
      store.delete(entry.key);
      sentKeys.push(entry.key);
    },
    update: async (entry, change) => {
      store.set(entry.key, { ...store.get(entry.key)!, ...change });
    },
  };
  /** Runs as the outbox's timer would: again after each stop's delay, until nothing is left to try. */
  async function runUntilSettled(maxRuns = 50) {
    const delays: number[] = [];
    for (let i = 0; i < maxRuns; i++) {
      const end = await runOutbox(port);
      if (!end.stopped) return delays;
      if (end.retryInMs === null) throw new Error('stopped to wait for the network');
      delays.push(end.retryInMs);
      clock += end.retryInMs;
    }
    throw new Error('never settled');
  }
  return { store, sentKeys, tries, port, runUntilSettled, advance: (ms: number) => (clock += ms) };
}

const failing: Outcome = { status: 500, message: 'Something went wrong on our side. Please try again.' };

describe('intake outbox policy', () => {
  it('sets an item the server keeps failing on (500) aside after bounded tries, and sends the rest', async () => {
    const outbox = memoryOutbox(['a', 'b', 'c'], (key) => (key === 'b' ? failing : 'ok'));
    const delays = await outbox.runUntilSettled();
    // a first; b tried OUTBOX_MAX_TRIES times with backoff (2 s, 4 s, 8 s), then set aside; c sent.
    expect(outbox.sentKeys).toEqual(['a', 'c']);
    expect(outbox.tries).toEqual(['a', ...Array(OUTBOX_MAX_TRIES).fill('b'), 'c']);
    expect(delays).toEqual([2000, 4000, 8000]);
    expect(outbox.store.get('b')).toMatchObject({
      refused: `the server failed on it ${OUTBOX_MAX_TRIES} times (Something went wrong on our side. Please try again.)`,
      failed: true,
      failures: OUTBOX_MAX_TRIES,
    });
  });

  it('keeps the order while an item is under its bound: later items wait for it', async () => {
    let bFails = 2;
    const outbox = memoryOutbox(['a', 'b', 'c'], (key) => (key === 'b' && bFails-- > 0 ? failing : 'ok'));
    await outbox.runUntilSettled();
    // b failed twice, then went through, before c: the order of intake holds.
    expect(outbox.sentKeys).toEqual(['a', 'b', 'c']);
    expect(outbox.tries).toEqual(['a', 'b', 'b', 'b', 'c']);
  });

  it('does not try an item again before its backoff, however often a run starts', async () => {
    const outbox = memoryOutbox(['b', 'c'], (key) => (key === 'b' ? failing : 'ok'));
    expect(await runOutbox(outbox.port)).toEqual({ stopped: true, retryInMs: 2000 });
    // A new item logged, the online event, "Send now": runs start at once and b keeps its wait.
    outbox.advance(500);
    expect(await runOutbox(outbox.port)).toEqual({ stopped: true, retryInMs: 1500 });
    expect(outbox.tries).toEqual(['b']);
    expect(outbox.sentKeys).toEqual([]);
  });

  it('waits without bound, in order, when the answer says nothing about the item', async () => {
    for (const status of [null, 401, 408, 429, 502, 503, 504]) {
      const outbox = memoryOutbox(['a', 'b'], (key) => (key === 'a' ? { status, message: null } : 'ok'));
      for (let i = 0; i < 10; i++) expect(await runOutbox(outbox.port)).toEqual({ stopped: true, retryInMs: null });
      expect(outbox.store.get('a')).toMatchObject({ refused: null });
      expect(outbox.sentKeys).toEqual([]);
    }
  });

  it('sets a refusal (4xx) aside at once with the server reason, not as a failure', async () => {
    const outbox = memoryOutbox(['a', 'b'], (key) =>
      key === 'a' ? { status: 404, message: 'Recipient not found' } : 'ok',
    );
    expect(await runOutbox(outbox.port)).toEqual({ stopped: false });
    expect(outbox.store.get('a')).toMatchObject({ refused: 'Recipient not found', failed: false });
    expect(outbox.sentKeys).toEqual(['b']);
  });

  it('counts a first try made by Log Mail itself, and gives a plain reason without a message', () => {
    expect(verdict(0, failing)).toEqual({ kind: 'again', failures: 1, delayMs: 2000 });
    expect(verdict(OUTBOX_MAX_TRIES - 1, { status: 500, message: null })).toEqual({
      kind: 'set-aside',
      failures: OUTBOX_MAX_TRIES,
      failed: true,
      reason: `the server failed on it ${OUTBOX_MAX_TRIES} times`,
    });
    expect(backoffMs(1)).toBe(2000);
    expect(backoffMs(20)).toBe(60_000);
  });
});
