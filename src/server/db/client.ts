import type { Writable } from 'node:stream';
import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema';
import { beginScoped, scopedOrganizations } from './tenant-scope';

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A database handle or a transaction on it: repositories accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = { db: Db; pool: pg.Pool; close: () => Promise<void> };

/**
 * `role`: set when the connecting user bypasses row-level security (a superuser): the role to act
 * as. `pooler: 'transaction'`: the connection goes through a pooler in transaction mode (PgBouncer),
 * where a server connection serves a client for one transaction only (decision 038).
 */
export type DatabaseOptions = { role?: string | null; pooler?: 'transaction' | null };

type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];
type AnyQuery = (...args: QueryArgs) => unknown;

/**
 * What a connection must have set before its statements run: the application's role (when the
 * connecting user bypasses row-level security) and the planner settings. Directly, once per
 * connection (`set`); behind a transaction pooler, in every transaction (`set local`), since the
 * next transaction may run on another server connection, and a session `set` would stay on this
 * one for whichever client gets it next.
 */
function preludeOf(role: string | null | undefined, local: boolean): string {
  const set = local ? 'set local' : 'set';
  return `${role ? `${set} role ${pg.escapeIdentifier(role)}; ` : ''}${set} ${PLANNER_SETTINGS}`;
}

/**
 * A transaction pooler cannot keep a named prepared statement: it was prepared on one server
 * connection and the next run may land on another ("prepared statement does not exist").
 * PgBouncer 1.21 can track them (max_prepared_statements); Debian 12 ships 1.18. Without its name
 * the statement runs unnamed: parsed and planned each time, as it was before decision 025.
 */
function unnamed(config: unknown): unknown {
  if (config && typeof config === 'object' && 'name' in config) {
    const { name: _name, ...rest } = config as { name?: unknown };
    return rest;
  }
  return config;
}

/** The statement that opens a transaction: with the scope's setting, and behind a pooler the prelude. */
function beginWith(ids: readonly string[] | undefined, prelude: string | null, begin = 'begin'): string {
  const opened = prelude ? `${begin}; ${prelude}` : begin;
  return ids ? beginScoped(ids, opened) : opened;
}

/**
 * A pool whose statements carry the tenant scope of the code sending them (tenant-scope.ts) as a
 * transaction-local setting, so row-level security holds with a connection pooler in
 * transaction mode too. A lone statement in scope runs in a transaction of its own that sets it,
 * in one round trip; a transaction opened in scope sets it with its `begin`, in the same round trip.
 * Behind a transaction pooler every statement does so, unscoped ones too, with the prelude.
 */
class TenantPool extends pg.Pool {
  /** Behind a transaction pooler: what each transaction sets first (preludeOf); else null. */
  prelude: string | null = null;

  override query(...args: QueryArgs): never {
    const ids = scopedOrganizations();
    // Callback-style calls (none of ours) keep pg's own path, unscoped.
    if (args.some((a) => typeof a === 'function')) {
      return (super.query as unknown as AnyQuery).apply(this, args) as never;
    }
    if (this.prelude) return this.inTransaction(beginWith(ids, this.prelude), unnamed(args[0]), args[1]) as never;
    if (!ids) return (super.query as unknown as AnyQuery).apply(this, args) as never;
    return this.inTransaction(beginScoped(ids), args[0], args[1]) as never;
  }

  /**
   * `begin` with the scope, the statement and `commit`, pipelined (pg's pipeline mode): the three
   * go out together and cost one round trip, not three. A failed statement makes the commit a
   * rollback (PostgreSQL ends an aborted transaction that way); every reply is awaited before the
   * connection goes back to the pool.
   */
  private async inTransaction(begin: string, config: unknown, values: unknown) {
    const client = await super.connect();
    const sent = [
      client.query(begin),
      (client.query as unknown as AnyQuery)(config, values) as Promise<unknown>,
      client.query('commit'),
    ];
    const [opened, statement, commit] = await Promise.allSettled(sent);
    const failure = [opened, statement, commit].find((r) => r!.status === 'rejected') as
      PromiseRejectedResult | undefined;
    // A reply from the server leaves the connection usable; anything else (a lost connection) ends it.
    client.release(failure && !(failure.reason instanceof pg.DatabaseError) ? (failure.reason as Error) : undefined);
    if (failure) throw failure.reason;
    return (statement as PromiseFulfilledResult<unknown>).value;
  }

  override connect(...args: unknown[]): never {
    const ids = scopedOrganizations();
    const prelude = this.prelude;
    const connect = super.connect as unknown as (...a: unknown[]) => unknown;
    if (!ids && !prelude) return connect.apply(this, args) as never;
    const callback = args[0];
    if (typeof callback === 'function') {
      return connect.call(this, (err: Error | undefined, client: pg.PoolClient | undefined, done: unknown) =>
        (callback as (...a: unknown[]) => void)(err, client && scopeTransactions(client, ids, prelude), done),
      ) as never;
    }
    return (connect.call(this) as Promise<pg.PoolClient>).then((client) =>
      scopeTransactions(client, ids, prelude),
    ) as never;
  }
}

/**
 * For this checkout only: every `begin` the client sends also sets the tenant scope (and, behind
 * a transaction pooler, the prelude). Behind a pooler, statements lose their names, and one sent
 * outside a transaction (none of ours: the checkouts are for transactions) gets one of its own
 * rather than run without the role.
 */
function scopeTransactions(client: pg.PoolClient, ids: readonly string[] | undefined, prelude: string | null) {
  const query = client.query as unknown as AnyQuery;
  const release = client.release;
  let inTransaction = false;
  const scoped: AnyQuery = function (this: pg.PoolClient, config, values, callback) {
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
    const params = (config as { values?: unknown[] } | null)?.values ?? values;
    if (prelude) config = unnamed(config);
    if (
      typeof text === 'string' &&
      /^\s*(begin|start\s+transaction)\b/i.test(text) &&
      !(Array.isArray(params) && params.length > 0)
    ) {
      inTransaction = true;
      const withScope = beginWith(ids, prelude, text.trim().replace(/;$/, ''));
      return query.call(
        this,
        typeof config === 'string' ? withScope : { ...(config as object), text: withScope },
        values,
        callback,
      );
    }
    if (typeof text === 'string' && /^\s*(commit|rollback|end|abort)\s*;?\s*$/i.test(text)) inTransaction = false;
    else if (prelude && !inTransaction && typeof callback !== 'function') {
      const sent = [
        query.call(this, beginWith(ids, prelude)),
        query.call(this, config, values),
        query.call(this, 'commit'),
      ] as Promise<unknown>[];
      return Promise.all(sent).then((r) => r[1]);
    }
    return query.call(this, config, values, callback);
  };
  client.query = scoped as typeof client.query;
  client.release = (err?: Error | boolean) => {
    client.query = query as typeof client.query;
    client.release = release;
    return release.call(client, err);
  };
  return client;
}

/**
 * pg writes each protocol message of a statement (parse, bind, describe, execute, sync) with a
 * write of its own; the socket merges some, but a scoped statement with its begin and commit
 * still took three system calls, and writes were a quarter of the server's CPU profile under
 * load (issue 13). Corked until the end of the current tick, everything a connection is sent in
 * one turn of the event loop goes out in one write.
 */
function oneWritePerTick(client: pg.PoolClient) {
  const stream = (client as unknown as { connection: { stream: Writable } }).connection.stream;
  const write = stream.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  stream.write = function (this: Writable, ...args: Parameters<Writable['write']>) {
    if (!corked) {
      corked = true;
      stream.cork();
      process.nextTick(uncork);
    }
    return write.apply(this, args);
  } as Writable['write'];
}

/**
 * Random reads cost about what sequential ones do on the SSDs databases run on today; the
 * default (4.0) dates from spinning disks. With it, a table without statistics (a restored
 * backup, a bulk load) had the first page of 100,000 items sorted from a bitmap scan of all of
 * them (75 ms) instead of read in index order (0.2 ms); with statistics both settings choose
 * the same plans for our lists (decision 021).
 */
export const PLANNER_SETTINGS = 'random_page_cost = 1.1';

export function connectDatabase(connectionString: string, poolSize: number, options: DatabaseOptions = {}): Database {
  const { role, pooler } = options;
  const pool = new TenantPool({
    connectionString,
    max: poolSize,
    // Statements sent without waiting go out together (a scoped statement's begin and commit).
    pipeline: true,
    idleTimeoutMillis: 30_000,
    // A request waits at most this long for a connection (the database gone, or the pool
    // exhausted) and then answers 503 (plugins/errors.ts) instead of hanging behind nginx's timeout.
    connectionTimeoutMillis: 5_000,
    // A superuser bypasses row-level security: each new connection takes the application's role
    // before its first use. A connection that cannot is closed and the checkout fails (pg-pool's
    // onConnect), never used as superuser. Behind a transaction pooler, each transaction does.
    // (onConnect is pg-pool's, missing from its types.)
    ...(pooler ? {} : ({ onConnect: (client: pg.PoolClient) => client.query(preludeOf(role, false)) } as object)),
  } as pg.PoolConfig);
  if (pooler) pool.prelude = preludeOf(role, true);
  // An idle client losing its connection (e.g. the server restarting) must not crash the process.
  pool.on('error', () => undefined);
  pool.on('connect', oneWritePerTick);
  // Nor one checked out between two statements (a transaction awaiting the app's code): pg-pool
  // listens for errors of idle clients only, and a client's 'error' event without a listener is
  // an uncaught exception (it was, in faults.test.ts). The statement in flight or the next one
  // fails on its own ("not queryable"), answers 503, and the broken client leaves the pool on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

/**
 * A transaction on one pooled connection, for code that talks to pg directly (prepared
 * statements on hot paths). Rolled back if `work` throws.
 */
export async function withPgTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (err) {
    // A connection that cannot even roll back is dropped rather than returned to the pool.
    await client.query('rollback').catch(() => (broken = true));
    throw err;
  } finally {
    client.release(broken);
  }
}
