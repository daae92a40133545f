import type { CreateMailItemBody, MailItem } from '@contract';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { queryClient } from '@/lib/queryClient';
import { invalidateMailItems } from '@/lib/resources/invalidate';
import { backoffMs, runOutbox, verdict, type Outcome } from './outboxPolicy';

/*
 * Offline intake (issue 29, decision 044). An item logged while the network is gone, or whose
 * request failed on the way (no answer, or a 5xx), waits in this browser's IndexedDB with its
 * photo (a Blob) and its Idempotency-Key, and is sent in the order it was logged when the network
 * returns. The key makes sending it again safe: a request the server received but whose answer
 * was lost is answered again, not logged twice. An item the server refuses (4xx: its recipient
 * deleted meanwhile, the monthly limit) stays with the server's reason until the clerk corrects
 * or discards it: nothing logged at the desk is dropped silently. An item the server keeps failing
 * on (500) is set aside the same way after a few tries (issue 41, decision 048: outboxPolicy.ts),
 * so one item never holds back the others; the clerk retries, corrects or discards it.
 */

export type OutboxRoute = 'create' | 'without-recipient';

/** The intake's body without the photo, which is kept as a Blob beside it. */
export type QueuedBody = Omit<CreateMailItemBody, 'photoData'>;

export interface OutboxEntry {
  /** The Idempotency-Key, chosen when the clerk pressed Log Mail. */
  key: string;
  organizationId: string;
  /** Who logged it: only their session sends it (another person signing in on this browser does not). */
  userId: string;
  route: OutboxRoute;
  body: QueuedBody;
  photo: Blob | null;
  /** What the clerk reads in the waiting list: the tracking number and recipient. */
  label: string;
  /** When it was logged (ms), the order it is sent in. */
  queuedAt: number;
  /**
   * Why it is set aside, waiting for the clerk (null while it waits to be sent): the server's reason
   * for a refusal, or its failure once it failed on the item OUTBOX_MAX_TRIES times.
   */
  refused: string | null;
  /** Set aside because the server failed on it (5xx), not refused: the clerk may simply retry. */
  failed?: boolean;
  /** 500s in a row for this item (absent on entries stored before issue 41: none). */
  failures?: number;
  /** Not tried again before this time (ms): its backoff after a 500. */
  nextTryAt?: number;
}

interface OutboxDb extends DBSchema {
  intakes: { key: string; value: OutboxEntry; indexes: { queuedAt: number } };
}

const DB_NAME = 'pigeonhole-outbox';
let dbPromise: Promise<IDBPDatabase<OutboxDb>> | undefined;
function db() {
  dbPromise ??= openDB<OutboxDb>(DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore('intakes', { keyPath: 'key' }).createIndex('queuedAt', 'queuedAt');
    },
  });
  return dbPromise;
}

// ---------------------------------------------------------------------------------------------
// What the screens read: every entry, oldest first, kept in memory and told to subscribers.

let entries: readonly OutboxEntry[] = [];
const listeners = new Set<() => void>();
/** The signed-in person (the shell says): their items are the ones sent and shown. */
let currentUserId: string | null = null;

export function setOutboxUser(userId: string | null) {
  if (userId === currentUserId) return;
  currentUserId = userId;
  if (userId) void syncOutbox();
}

async function reload() {
  entries = await (await db()).getAllFromIndex('intakes', 'queuedAt');
  for (const listener of listeners) listener();
}

export function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const snapshot = () => entries;

// ---------------------------------------------------------------------------------------------
// Keys and photos

/** A fresh Idempotency-Key (crypto.randomUUID needs a secure context; a desk on plain http has none). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A data URL as a Blob, decoded here (no fetch: it must work with the network gone). */
export function blobOfDataUrl(dataUrl: string): Blob {
  const [head = '', data = ''] = dataUrl.split(',', 2);
  const type = /^data:([^;,]+)/.exec(head)?.[1] ?? 'application/octet-stream';
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type });
}

function dataUrlOfBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('The photo could not be read'));
    reader.readAsDataURL(blob);
  });
}

// ---------------------------------------------------------------------------------------------
// Sending

const URLS: Record<OutboxRoute, string> = {
  create: '/api/mail-items',
  'without-recipient': '/api/mail-items/needs-recipient',
};

/** Sends one intake with its key; throws ApiError (an answer) or another error (no answer). */
export function sendIntake(
  organizationId: string,
  route: OutboxRoute,
  body: CreateMailItemBody,
  key: string,
): Promise<MailItem> {
  // Without a recipient (decision 041) the body names none.
  const { recipientId: _none, ...withoutRecipient } = body;
  return apiRequest<MailItem>('POST', URLS[route], route === 'create' ? body : withoutRecipient, {
    organizationId,
    headers: { 'Idempotency-Key': key },
  });
}

/** A send's failure as the policy reads it: no answer (null), or the status and the server's message. */
export function outcomeOf(err: unknown): Outcome {
  if (!(err instanceof ApiError)) return { status: null, message: null };
  return { status: err.status, message: serverMessage(err, '') || null };
}

/** Puts an intake in the outbox (the photo as a Blob), to be sent in turn. */
export async function enqueue(
  entry: Omit<OutboxEntry, 'queuedAt' | 'refused' | 'photo' | 'failed' | 'nextTryAt'> & { photoData?: string | null },
) {
  const { photoData, ...rest } = entry;
  const now = Date.now();
  const queued: OutboxEntry = {
    ...rest,
    photo: photoData ? blobOfDataUrl(photoData) : null,
    queuedAt: now,
    refused: null,
    // A first try the server failed on (Log Mail's own) waits its backoff before the second.
    nextTryAt: rest.failures ? now + backoffMs(rest.failures) : undefined,
  };
  await (await db()).put('intakes', queued);
  await reload();
  scheduleRetry();
}

/** Discards a waiting or refused item: the clerk's choice, never the app's. */
export async function discard(key: string) {
  await (await db()).delete('intakes', key);
  await reload();
}

/**
 * A set-aside item as the clerk corrected it, or sent again as it is (`change` empty: "Retry"):
 * waiting again in its place, with its tries counted afresh, sent with the same key.
 */
export async function correct(key: string, change: Partial<Pick<OutboxEntry, 'body' | 'route' | 'label'>> = {}) {
  const database = await db();
  const entry = await database.get('intakes', key);
  if (!entry) return;
  await database.put('intakes', { ...entry, ...change, refused: null, failed: false, failures: 0, nextTryAt: 0 });
  await reload();
  void syncOutbox();
}

let running: Promise<void> | undefined;
let again = false;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let failures = 0;

/**
 * The next run: after `delay` (an item's own backoff), or after the outbox's backoff for the
 * network (2 s, 4 s, 8 s … up to a minute; at once when the browser says it is back online).
 */
function scheduleRetry(delay?: number) {
  clearTimeout(retryTimer);
  const wait = delay ?? (failures === 0 ? 0 : Math.min(60_000, 1000 * 2 ** Math.min(failures, 6)));
  retryTimer = setTimeout(() => void syncOutbox(), wait);
}

/** Sends what waits, oldest first (outboxPolicy.ts decides what each answer means). */
async function drain() {
  const end = await runOutbox<OutboxEntry>({
    waiting: async () =>
      (await (await db()).getAllFromIndex('intakes', 'queuedAt')).filter(
        (e) => !e.refused && e.userId === currentUserId,
      ),
    offline: () => typeof navigator !== 'undefined' && navigator.onLine === false,
    now: Date.now,
    send: async (entry) => {
      const photoData = entry.photo ? await dataUrlOfBlob(entry.photo) : null;
      await sendIntake(entry.organizationId, entry.route, { ...entry.body, photoData }, entry.key);
    },
    outcome: outcomeOf,
    sent: async (entry) => {
      await (await db()).delete('intakes', entry.key);
      void invalidateMailItems(queryClient, entry.organizationId);
      await reload();
    },
    update: async (entry, change) => {
      const database = await db();
      const current = await database.get('intakes', entry.key);
      if (current) await database.put('intakes', { ...current, ...change });
      await reload();
    },
  });
  if (!end.stopped) {
    failures = 0;
    return reload();
  }
  // An item the server failed on waits its own backoff; the network's wait grows with each stop.
  // (The `online` event and the clerk's "Send now" start a run at once; an item's backoff holds.)
  if (end.retryInMs !== null) {
    scheduleRetry(end.retryInMs);
    return reload();
  }
  return retryLater();
}

function retryLater() {
  failures += 1;
  scheduleRetry();
  return reload();
}

/** Sends the outbox now (one run at a time; a call during a run runs it again after). */
export function syncOutbox(): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      await drain();
    } while (again);
  })()
    .catch(() => retryLater())
    .finally(() => {
      running = undefined;
    });
  return running;
}

let started = false;
/** Once per page: load what waits, send it, and again whenever the browser comes back online. */
export function startOutbox() {
  if (started || typeof indexedDB === 'undefined') return;
  started = true;
  window.addEventListener('online', () => {
    failures = 0;
    void syncOutbox();
  });
  void reload().then(() => syncOutbox());
}

export type Logged = { item: MailItem; queued: false } | { item: null; queued: true };

/**
 * Log Mail's save: sent at once with a fresh key when the browser is online and nothing waits
 * before it, else (or when no answer comes back, or a 5xx) kept in the outbox to be sent in
 * turn. A refusal (4xx) is thrown, for the dialog to show as before.
 */
export async function logOrQueue(
  organizationId: string,
  userId: string,
  route: OutboxRoute,
  { photoData, ...body }: CreateMailItemBody,
  label: string,
): Promise<Logged> {
  const key = newIdempotencyKey();
  const queue = async (failed = 0): Promise<Logged> => {
    await enqueue({ key, organizationId, userId, route, body, label, photoData, failures: failed });
    return { item: null, queued: true };
  };
  if (navigator.onLine === false) return queue();
  // Items already waiting go first: this one joins the line rather than overtaking it.
  if (entries.some((e) => e.organizationId === organizationId && e.userId === userId && !e.refused)) return queue();
  try {
    const item = await sendIntake(organizationId, route, { ...body, photoData }, key);
    void invalidateMailItems(queryClient, organizationId);
    return { item, queued: false };
  } catch (err) {
    const outcome = outcomeOf(err);
    if (outcome.status === 401) throw err;
    // The first try counts: a 500 here is the first of the item's tries in the outbox.
    const next = verdict(0, outcome);
    if (next.kind === 'wait') return queue();
    if (next.kind === 'again') return queue(next.failures);
    if (next.failed) return queue(next.failures);
    throw err;
  }
}
