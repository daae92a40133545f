import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of its own for tests that stop, restart or replicate the server: made with
 * the machine's PostgreSQL binaries (PG_BIN, default Debian's PostgreSQL 15) in a temp folder, on a
 * free loopback port, trust authentication. Never the machine's main cluster, which other tests use.
 */
export interface PgCluster {
  port: number;
  dataDir: string;
  /** postgres://postgres@127.0.0.1:port/<database> */
  url(database?: string): string;
  start(): Promise<void>;
  /** Fast shutdown: connections are cut, as when the server goes away. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Whether the binaries exist (tests that need a cluster of their own skip without them). */
export async function canMakeClusters(): Promise<boolean> {
  return fs.access(path.join(PG_BIN, 'initdb')).then(
    () => true,
    () => false,
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * PostgreSQL refuses to run as root: under root the binaries run as the `postgres` user, which
 * must own the folder.
 */
async function asPostgres(command: string, args: string[]) {
  const binary = path.join(PG_BIN, command);
  if (process.getuid?.() === 0) {
    return run('runuser', ['-u', 'postgres', '--', binary, ...args]);
  }
  return run(binary, args);
}

async function makeFolder(prefix: string) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  await fs.chmod(dir, 0o700);
  if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', dir]);
  return dir;
}

/** `settings` become `postgresql.conf` lines (for example wal_level, max_wal_senders). */
export async function createCluster(settings: Record<string, string> = {}): Promise<PgCluster> {
  const dataDir = await makeFolder('pigeonhole-pg-');
  await asPostgres('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  return clusterAt(dataDir, port, settings);
}

/**
 * A streaming replica of `primary` made with pg_basebackup (the primary must allow replication:
 * initdb's defaults do, wal_level replica and local trust for replication), started and in recovery.
 */
export async function createReplica(primary: PgCluster): Promise<PgCluster> {
  const dataDir = await makeFolder('pigeonhole-replica-');
  await asPostgres('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dataDir,
    '-R', // writes standby.signal and primary_conninfo
    '-X',
    'stream',
    // An immediate checkpoint: the default (spread) made each replica take about 110 s.
    '--checkpoint=fast',
  ]);
  const port = await freePort();
  return clusterAt(dataDir, port, { hot_standby: 'on' });
}

async function clusterAt(dataDir: string, port: number, settings: Record<string, string>): Promise<PgCluster> {
  const conf = {
    listen_addresses: "'127.0.0.1'",
    port: String(port),
    unix_socket_directories: `'${dataDir}'`,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: '200',
    ...settings,
  };
  const lines = Object.entries(conf).map(([k, v]) => `${k} = ${v}`);
  await fs.appendFile(path.join(dataDir, 'postgresql.conf'), `\n${lines.join('\n')}\n`);
  const log = path.join(dataDir, 'server.log');
  const cluster: PgCluster = {
    port,
    dataDir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => {
      await asPostgres('pg_ctl', ['-D', dataDir, '-l', log, '-w', '-t', '30', 'start']);
    },
    stop: async () => {
      await asPostgres('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    },
    restart: async () => {
      await cluster.stop();
      await cluster.start();
    },
    destroy: async () => {
      await cluster.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
