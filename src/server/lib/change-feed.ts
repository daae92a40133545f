import crypto from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../db/client';
import { asPlatform } from '../db/tenant-scope';

/**
 * What one instance tells every other instance on the same database, through PostgreSQL
 * LISTEN/NOTIFY on one channel: the live desk's events (issue 29). (Cache invalidations went
 * this way until decision 037 made the caches check a data version instead.) A message is
 * `{ i: instance id, k: kind, p: payload, t: sent at (ms since the epoch, the sender's clock) }`
 * as JSON (`t` gives the metrics the feed's lag: sent to received); each instance listens on
 * a connection of its own (not one of the pool's) and skips the messages it sent itself.
 *
 * Delivery is at most once: a message sent while an instance is not listening is lost to it.
 * Subscribers learn of such gaps through `onListening(false)` and `onListening(true)` (after a
 * reconnect) and must assume they missed something (the caches clear themselves).
 *
 * Decision 018.
 */
export const CHANGE_FEED_CHANNEL = 'pigeonhole_changes';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more (in its default build). */
export const MAX_MESSAGE_BYTES = 7999;

/** How long to wait before reconnecting: doubling from `minMs` to `maxMs`, with jitter. */
type ReconnectDelays = { minMs: number; maxMs: number };
const DEFAULT_DELAYS: ReconnectDelays = { minMs: 100, maxMs: 5_000 };

type Handler = (payload: unknown) => void;
type Envelope = { i: string; k: string; p: unknown; t?: number };

/** What the feed has done since it was made (read by the metrics at scrape time). */
type ChangeFeedStats = {
  /** Messages from other instances delivered to this one. */
  received: number;
  /** Times listening started again after the connection was lost. */
  reconnects: number;
};

export type ChangeFeed = {
  /** This instance's id: its own messages come back to it and are skipped by it. */
  readonly instanceId: string;
  /** Whether this instance is listening now (every message sent from now on reaches it). */
  readonly listening: boolean;
  readonly stats: Readonly<ChangeFeedStats>;
  /**
   * Calls `observer` with each received message's lag in ms (its receipt minus its `t`, on two
   * machines' clocks) and kind; one observer (the metrics), the last one set wins.
   */
  observeLag(observer: (lagMs: number, kind: string) => void): void;
  /**
   * Sends `payload` (JSON, under 8000 bytes with its envelope) to every other instance. With a
   * transaction it is sent as part of it: PostgreSQL delivers it when, and only if, it commits.
   */
  publish(kind: string, payload: unknown, tx?: DbOrTx): Promise<void>;
  /** Calls `handler` with the payload of every message of `kind` from another instance; answers an unsubscribe. */
  subscribe(kind: string, handler: Handler): () => void;
  /** Called with `false` when listening stops (messages may be missed from then on) and `true` when it starts again. */
  onListening(handler: (listening: boolean) => void): () => void;
  /** Connects and listens; resolves after the first attempt, successful or not (it keeps retrying). */
  start(): Promise<void>;
  close(): Promise<void>;
};

export type ChangeFeedOptions = {
  db: Db;
  log: FastifyBaseLogger;
  /** Where to listen; by default the pool's own database with the configured user (no `set role`). */
  connection?: pg.ClientConfig;
  reconnect?: ReconnectDelays;
};

/**
 * Sends one message on the channel from `sender` (an instance id, or a name for code outside the
 * app such as the operator's commands) through `via`: in a transaction it is delivered when, and
 * only if, that commits; through the pool it is a lone statement, outside any request's tenant
 * scope (one round trip, no transaction of its own).
 */
export async function notifyChange(via: DbOrTx, sender: string, kind: string, payload: unknown) {
  const text = changeMessage(sender, kind, payload);
  await asPlatform(() => via.execute(sql`select pg_notify(${CHANGE_FEED_CHANNEL}, ${text})`));
}

/**
 * One message as the channel carries it (for a caller that sends it through a plain pg client,
 * such as the mail item writer's statements); throws when it is over the size limit.
 */
export function changeMessage(sender: string, kind: string, payload: unknown): string {
  const text = JSON.stringify({ i: sender, k: kind, p: payload, t: Date.now() } satisfies Envelope);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_MESSAGE_BYTES)
    throw new Error(`change feed: a "${kind}" message of ${bytes} bytes is over the limit`);
  return text;
}

/** The pool's connection settings, for a plain connection of our own beside it. */
function connectionOf(pool: pg.Pool): pg.ClientConfig {
  const o = pool.options;
  const picked: pg.ClientConfig = {
    connectionString: o.connectionString,
    host: o.host,
    port: o.port,
    user: o.user,
    password: o.password,
    database: o.database,
    ssl: o.ssl,
  };
  return Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined)) as pg.ClientConfig;
}

export function createChangeFeed({ db, log, connection, reconnect = DEFAULT_DELAYS }: ChangeFeedOptions): ChangeFeed {
  const instanceId = crypto.randomUUID();
  const handlers = new Map<string, Set<Handler>>();
  const listeners = new Set<(listening: boolean) => void>();
  const settings: pg.ClientConfig = {
    ...(connection ?? connectionOf(db.$client)),
    application_name: `pigeonhole-change-feed:${instanceId}`,
    keepAlive: true,
    // An unreachable server fails the attempt (and the next one is scheduled) instead of hanging.
    connectionTimeoutMillis: 10_000,
  };
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let attempts = 0;
  let retry: NodeJS.Timeout | undefined;
  let everListened = false;
  const stats: ChangeFeedStats = { received: 0, reconnects: 0 };
  let lagObserver: ((lagMs: number, kind: string) => void) | undefined;

  function setListening(value: boolean) {
    if (listening === value) return;
    listening = value;
    for (const listener of listeners) {
      try {
        listener(value);
      } catch (err) {
        log.error({ err }, 'change feed: a listening handler failed');
      }
    }
  }

  function deliver(text: string) {
    let message: Envelope;
    try {
      message = JSON.parse(text) as Envelope;
    } catch {
      log.warn('change feed: a message that is not JSON was skipped');
      return;
    }
    if (!message || typeof message !== 'object' || typeof message.k !== 'string') return;
    if (message.i === instanceId) return;
    stats.received += 1;
    if (lagObserver && typeof message.t === 'number') lagObserver(Math.max(0, Date.now() - message.t), message.k);
    for (const handler of handlers.get(message.k) ?? []) {
      try {
        handler(message.p);
      } catch (err) {
        log.error({ err, kind: message.k }, 'change feed: a handler failed');
      }
    }
  }

  /** The listening connection ended or failed: stop trusting it, and try again later. */
  function lost(c: pg.Client, err?: Error) {
    if (client !== c) return;
    client = undefined;
    setListening(false);
    c.end().catch(() => undefined);
    if (closed) return;
    log.warn({ err }, 'change feed: the listening connection was lost; reconnecting');
    scheduleRetry();
  }

  function scheduleRetry() {
    if (closed || retry) return;
    const base = Math.min(reconnect.maxMs, reconnect.minMs * 2 ** attempts);
    attempts += 1;
    retry = setTimeout(
      () => {
        retry = undefined;
        connect().catch((err: unknown) => {
          log.warn({ err, attempts }, 'change feed: cannot listen yet; retrying');
          scheduleRetry();
        });
      },
      base / 2 + Math.random() * (base / 2),
    );
    retry.unref();
  }

  async function connect() {
    const c = new pg.Client(settings);
    c.on('notification', (n) => {
      if (n.channel === CHANGE_FEED_CHANNEL && n.payload) deliver(n.payload);
    });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query(`listen ${CHANGE_FEED_CHANNEL}`);
    } catch (err) {
      c.end().catch(() => undefined);
      throw err;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    attempts = 0;
    if (everListened) stats.reconnects += 1;
    everListened = true;
    setListening(true);
  }

  return {
    instanceId,
    get listening() {
      return listening;
    },
    stats,
    observeLag(observer) {
      lagObserver = observer;
    },

    publish(kind, payload, tx) {
      return notifyChange(tx ?? db, instanceId, kind, payload);
    },

    subscribe(kind, handler) {
      let set = handlers.get(kind);
      if (!set) handlers.set(kind, (set = new Set()));
      set.add(handler);
      return () => void set.delete(handler);
    },

    onListening(handler) {
      listeners.add(handler);
      return () => void listeners.delete(handler);
    },

    async start() {
      if (closed || client || retry) return;
      try {
        await connect();
      } catch (err) {
        log.warn({ err }, 'change feed: cannot listen yet; retrying');
        scheduleRetry();
      }
    },

    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = undefined;
      const c = client;
      client = undefined;
      setListening(false);
      await c?.end().catch(() => undefined);
    },
  };
}
