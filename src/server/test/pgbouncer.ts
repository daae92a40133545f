import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './pg-cluster';

const run = promisify(execFile);

export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

/** Whether Debian's pgbouncer is installed (the tests that need it skip, saying so, without it). */
export async function hasPgBouncer(): Promise<boolean> {
  return fs.access(PGBOUNCER_BIN).then(
    () => true,
    () => false,
  );
}

export interface PgBouncer {
  port: number;
  /** `databaseUrl` with its host and port replaced by the pooler's (same user, same database). */
  urlFor(databaseUrl: string): string;
  /** Rows of an admin console command (SHOW POOLS, SHOW SERVERS…). */
  show(what: string): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction mode in front of the PostgreSQL at `backendUrl`'s host and port (every
 * database, as the connecting user), run as a child process with a generated ini in a temp folder.
 * `poolSize` server connections per database and user: fewer than the app's pool, so that its
 * connections really take turns on them. Clients are trusted (the user listed in auth_file, with
 * the password of `backendUrl`, which PgBouncer then logs in to the server with).
 * Under root it runs as `postgres` (PgBouncer refuses root).
 */
export async function startPgBouncer(backendUrl: string, { poolSize = 4 } = {}): Promise<PgBouncer> {
  const backend = new URL(backendUrl);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pigeonhole-pgbouncer-'));
  const port = await freePort();
  const user = decodeURIComponent(backend.username || 'postgres');
  const ini = [
    '[databases]',
    `* = host=${backend.hostname} port=${backend.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'userlist.txt')}`,
    `admin_users = ${user}`,
    'pool_mode = transaction',
    `default_pool_size = ${poolSize}`,
    'max_client_conn = 500',
    `logfile = ${path.join(dir, 'pgbouncer.log')}`,
    // node-postgres sends none of these, psql and others may
    'ignore_startup_parameters = extra_float_digits,options',
  ].join('\n');
  await fs.writeFile(path.join(dir, 'pgbouncer.ini'), `${ini}\n`);
  // Clients are trusted; the password (the embedded PostgreSQL's has one) is what PgBouncer logs
  // in to the server with. (A double quote is written twice in auth_file.)
  const password = decodeURIComponent(backend.password).replaceAll('"', '""');
  await fs.writeFile(path.join(dir, 'userlist.txt'), `"${user.replaceAll('"', '""')}" "${password}"\n`, {
    mode: 0o600,
  });
  let ids: { uid: number; gid: number } | undefined;
  if (process.getuid?.() === 0) {
    const [uid, gid] = await Promise.all(
      ['-u', '-g'].map(async (flag) => Number((await run('id', [flag, 'postgres'])).stdout.trim())),
    );
    ids = { uid: uid!, gid: gid! };
    await run('chown', ['-R', 'postgres:postgres', dir]);
  }
  const child: ChildProcess = spawn(PGBOUNCER_BIN, [path.join(dir, 'pgbouncer.ini')], {
    stdio: 'ignore',
    ...(ids ?? {}),
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, exited, dir);
  const { default: pg } = await import('pg');
  return {
    port,
    urlFor(databaseUrl) {
      const u = new URL(databaseUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async show(what) {
      const client = new pg.Client({ host: '127.0.0.1', port, user, database: 'pgbouncer' });
      await client.connect();
      try {
        // (no values: pg sends it as a simple query, the only kind the admin console takes)
        return (await client.query(`show ${what}`)).rows as Record<string, unknown>[];
      } finally {
        await client.end();
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number, exited: Promise<void>, dir: string) {
  let gone = false;
  void exited.then(() => (gone = true));
  for (let i = 0; i < 100; i += 1) {
    if (gone) {
      const log = await fs.readFile(path.join(dir, 'pgbouncer.log'), 'utf8').catch(() => '');
      throw new Error(`pgbouncer exited at start:\n${log}`);
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('pgbouncer did not listen within 5 s');
}
