// `npm run restore -- FOLDER [--database-url URL]`: a folder written by `npm run backup` into an
// empty database (DATABASE_URL, or --database-url; created when it does not exist yet), then the
// migrations (newer code on an older backup), then planner statistics; the row counts are checked
// against the backup's manifest. docs/operations.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../src/server/config';
import { connectDatabase } from '../src/server/db/client';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/server/db/embedded';
import { runMigrations } from '../src/server/db/migrate';
import {
  countRows,
  DUMP_FILE,
  libpqArgs,
  MANIFEST_FILE,
  parseArgs,
  pgTool,
  runTool,
  SECRETS_KEY_FILE,
  serverMajor,
  type Manifest,
} from './backup-tools';

const rootDir = fileURLToPath(new URL('..', import.meta.url));
const { positional, options } = parseArgs(process.argv.slice(2));
const config = loadConfig(process.env, rootDir);

/** Connects to `url`, creating its database first (from the server's `postgres` database) if missing. */
async function connectOrCreate(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return client;
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw err; // invalid_catalog_name: no such database
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  await admin.connect();
  try {
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
    console.log(`Created the database ${name}`);
  } finally {
    await admin.end();
  }
  const created = new pg.Client({ connectionString: url });
  await created.connect();
  return created;
}

async function main(): Promise<void> {
  const folder = positional[0];
  if (!folder) throw new Error('Usage: npm run restore -- BACKUP_FOLDER [--database-url URL]');
  const manifestFile = path.join(folder, MANIFEST_FILE);
  const dumpFile = path.join(folder, DUMP_FILE);
  if (!fs.existsSync(manifestFile) || !fs.existsSync(dumpFile)) {
    throw new Error(`${folder} is not a backup folder (no ${MANIFEST_FILE} and ${DUMP_FILE})`);
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  if (manifest.format !== 'pigeonhole-backup/1') throw new Error(`Unknown backup format: ${String(manifest.format)}`);

  let embedded: EmbeddedServer | undefined;
  let url = typeof options['database-url'] === 'string' ? options['database-url'] : config.databaseUrl;
  if (!url) {
    console.log(`DATABASE_URL is unset: restoring into the embedded PostgreSQL in ${config.dataDir}`);
    embedded = await startEmbeddedPostgres(config.dataDir);
    url = embedded.url;
  }
  const client = await connectOrCreate(url);
  try {
    // Into an empty database only: a restore over live data would mix two histories.
    const { rows: present } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
        where s.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p')`,
    );
    if (present[0]!.n > 0) {
      throw new Error('The target database is not empty: restore into a new database (it is created if missing)');
    }
    const server = await serverMajor(client);
    const restore = await pgTool('pg_restore', server.major);
    const started = Date.now();
    const { dbArg, env } = libpqArgs(url);
    // One transaction: a failed restore leaves the database empty, not half-filled.
    await runTool(
      restore.path,
      ['--no-owner', '--no-acl', '--exit-on-error', '--single-transaction', `--dbname=${dbArg}`, dumpFile],
      env,
    );
    const restored = await countRows(client);
    const differences = Object.entries(manifest.rows).filter(([table, n]) => restored[table] !== n);
    if (differences.length > 0) {
      throw new Error(
        `Row counts differ from the backup's manifest: ${differences
          .map(([table, n]) => `${table} ${restored[table] ?? 'missing'} (expected ${n})`)
          .join(', ')}`,
      );
    }
    // Newer code than the backup: its migrations, the row-level security grants, the app role.
    const migrator = connectDatabase(url, 1);
    try {
      await runMigrations(migrator.db, rootDir);
    } finally {
      await migrator.close();
    }
    // A restored database has no planner statistics until autovacuum gets to it (decision 021).
    await client.query('analyze');
    const total = Object.values(restored).reduce((a, b) => a + b, 0);
    console.log(
      `Restored ${manifest.database} of ${manifest.createdAt} (${total} rows, counts as in the manifest) ` +
        `in ${Date.now() - started} ms`,
    );
    restoreSecretsKey(manifest, folder);
  } finally {
    await client.end();
    await embedded?.stop();
  }
}

/** The integrations' secrets need the key they were written with (SECRETS_KEY or DATA_DIR/secrets.key). */
function restoreSecretsKey(manifest: Manifest, folder: string) {
  if (manifest.secretsKey === 'environment') {
    console.log("The backup's instance took SECRETS_KEY from its environment: start this one with the same.");
    return;
  }
  if (manifest.secretsKey !== 'included') return;
  const from = path.join(folder, SECRETS_KEY_FILE);
  const to = path.join(config.dataDir, SECRETS_KEY_FILE);
  if (config.secretsKey) {
    console.log(`SECRETS_KEY is set here: integration secrets need the key in ${from} (SECRETS_KEY_PREVIOUS).`);
  } else if (!fs.existsSync(to)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.copyFileSync(from, to);
    fs.chmodSync(to, 0o600);
    console.log(`Copied the secrets key to ${to}`);
  } else if (!fs.readFileSync(to).equals(fs.readFileSync(from))) {
    console.warn(
      `${to} is another key than the backup's: integration secrets will not decrypt. Put the backup's ` +
        `key in SECRETS_KEY_PREVIOUS (they are then re-encrypted at start), or replace the file.`,
    );
  }
}

try {
  await main();
} catch (err) {
  console.error(`Restore failed: ${err instanceof Error ? err.message : String(err)}`);
  // Explicitly: tsx does not pass process.exitCode on (seen with tsx 4 on Node 20).
  process.exit(1);
}
