/*
 * What the intake outbox does with each answer (issue 41 item 3, decision 048), kept free of
 * IndexedDB, fetch and the app's aliases so the unit test loads it as it is (outboxPolicy.test.ts).
 *
 * Items are sent oldest first. An answer that says nothing about the item (no answer at all, a
 * session to renew, the server or its proxy unavailable, a rate limit) stops the run: the item keeps
 * its place and everything after it waits, as the order of a desk's intake matters. A 500 is the
 * server failing on this request: tried again with backoff, and after OUTBOX_MAX_TRIES in a row it
 * is set aside with its reason, like a refusal, so the items after it are sent. A refusal (any
 * other 4xx) is set aside at once. A set-aside item waits for the clerk: retry, correct or discard.
 */

/** Tries of one item the server keeps failing on (500) before it is set aside: ~14 s of backoff. */
export const OUTBOX_MAX_TRIES = 4;

/** The backoff after the n-th failure in a row (n >= 1): 2 s, 4 s, 8 s … at most a minute. */
export function backoffMs(failures: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.min(Math.max(failures, 1), 6));
}

/** How a send ended: the HTTP status (null: no answer at all) and the server's message, if any. */
export interface Outcome {
  status: number | null;
  message: string | null;
}

/** What the outbox does next with an item whose send failed. */
export type Verdict =
  /** Nothing known about the item: it keeps its place, the run stops, later items wait behind it. */
  | { kind: 'wait' }
  /** The server failed on it, under the bound: tried again after `delayMs`; later items wait. */
  | { kind: 'again'; failures: number; delayMs: number }
  /** Set aside with its reason for the clerk; the run goes on with the next item. */
  | { kind: 'set-aside'; failures: number; reason: string; failed: boolean };

/**
 * Statuses that say nothing about the item: 401 (sign in again and it is still there), 408 and
 * 429 (the server asks to come back later), 502/503/504 (the server or its proxy is unavailable:
 * a database restarting answers 503). They are retried without bound, in order, like being offline.
 */
const NOT_ABOUT_THE_ITEM = new Set([401, 408, 429, 502, 503, 504]);

export function verdict(failuresBefore: number, outcome: Outcome): Verdict {
  const { status } = outcome;
  if (status === null || NOT_ABOUT_THE_ITEM.has(status)) return { kind: 'wait' };
  if (status >= 500) {
    const failures = failuresBefore + 1;
    if (failures < OUTBOX_MAX_TRIES) return { kind: 'again', failures, delayMs: backoffMs(failures) };
    const said = outcome.message ? ` (${outcome.message})` : '';
    return {
      kind: 'set-aside',
      failures,
      failed: true,
      reason: `the server failed on it ${failures} times${said}`,
    };
  }
  return {
    kind: 'set-aside',
    failures: failuresBefore,
    failed: false,
    reason: outcome.message ?? 'The server refused this item',
  };
}

/** What the run needs of an entry; the stored entry (outbox.ts) has these and more. */
export interface PolicyEntry {
  key: string;
  queuedAt: number;
  /** The reason it is set aside (refused, or failed OUTBOX_MAX_TRIES times); null while it waits. */
  refused: string | null;
  /** 500s in a row for this item (absent on entries stored before issue 41: none). */
  failures?: number;
  /** Not tried again before this time (ms) after a 500: the item's own backoff. */
  nextTryAt?: number;
}

/** The run's view of the store and the network, given by outbox.ts (IndexedDB, fetch) or a test. */
export interface OutboxPort<E extends PolicyEntry> {
  /** The entries waiting to be sent by this person now (not set aside), oldest first. */
  waiting(): Promise<E[]>;
  /** Sends one; resolves when the server took it, else rejects with what `outcome` reads. */
  send(entry: E): Promise<void>;
  outcome(err: unknown): Outcome;
  /** Whether to stop before the next send (the browser says it is offline). */
  offline(): boolean;
  now(): number;
  sent(entry: E): Promise<void>;
  update(entry: E, change: Partial<PolicyEntry> & { failed?: boolean }): Promise<void>;
}

/** How a run ended: all sent or set aside, or stopped at an item to try again later. */
export type RunEnd = { stopped: false } | { stopped: true; retryInMs: number | null };

/**
 * One run of the outbox: sends what waits, oldest first. Stops at an item that cannot be sent
 * now (`retryInMs` null: the caller's own backoff, as for the network) or that the server failed on
 * under the bound (`retryInMs`: that item's backoff); sets aside what was refused or failed too
 * often and goes on with the next.
 */
export async function runOutbox<E extends PolicyEntry>(port: OutboxPort<E>): Promise<RunEnd> {
  for (const entry of await port.waiting()) {
    if (port.offline()) return { stopped: true, retryInMs: null };
    // Still in its backoff: it keeps its place and the items after it wait (the order holds).
    const wait = (entry.nextTryAt ?? 0) - port.now();
    if (wait > 0) return { stopped: true, retryInMs: wait };
    try {
      await port.send(entry);
      await port.sent(entry);
      continue;
    } catch (err) {
      const next = verdict(entry.failures ?? 0, port.outcome(err));
      if (next.kind === 'wait') return { stopped: true, retryInMs: null };
      if (next.kind === 'again') {
        await port.update(entry, { failures: next.failures, nextTryAt: port.now() + next.delayMs });
        return { stopped: true, retryInMs: next.delayMs };
      }
      await port.update(entry, { refused: next.reason, failed: next.failed, failures: next.failures });
    }
  }
  return { stopped: false };
}
