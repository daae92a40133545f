// `npm run backup [-- --out FOLDER] [--database-url URL]`: the whole database DATABASE_URL (or
// --database-url: the direct address when DATABASE_URL is a transaction pooler) names (every organization,
// photos included: they are rows of `photos`), as a pg_dump custom-format archive in a folder of
// its own with a manifest (row counts, migrations, versions) and, when the instance keeps its
// secrets key in DATA_DIR, that key. Restore with `npm run restore -- FOLDER`. docs/operations.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../src/server/config';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/server/db/embedded';
import {
  countRows,
  DUMP_FILE,
  libpqArgs,
  MANIFEST_FILE,
  migrationsApplied,
  parseArgs,
  pgTool,
  PRIVATE_FILE_MODE,
  PRIVATE_FOLDER_MODE,
  runTool,
  SECRETS_KEY_FILE,
  serverMajor,
  type Manifest,
} from './backup-tools';

const rootDir = fileURLToPath(new URL('..', import.meta.url));
// A backup is every organization's data, photos and perhaps the secrets key: for the operator
// alone. Everything this process and pg_dump create is 0600 (folders 0700), whatever the shell's
// umask; the folder and files are also set explicitly below (an existing folder keeps its mode).
process.umask(0o077);
const { options } = parseArgs(process.argv.slice(2));
const config = loadConfig(process.env, rootDir);

const given = typeof options['database-url'] === 'string' ? options['database-url'] : config.databaseUrl;
let embedded: EmbeddedServer | undefined;
if (!given) {
  // The embedded cluster can only be opened while no server runs on it (one postmaster per folder).
  console.log(`DATABASE_URL is unset: starting the embedded PostgreSQL in ${config.dataDir} for the backup`);
  embedded = await startEmbeddedPostgres(config.dataDir);
}
const url = given ?? embedded!.url;
const client = new pg.Client({ connectionString: url });
await client.connect();
let failed = false;
try {
  const server = await serverMajor(client);
  const dump = await pgTool('pg_dump', server.major);
  const { rows } = await client.query<{ db: string }>('select current_database() as db');
  const database = rows[0]!.db;
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  const out = path.resolve(
    typeof options.out === 'string' ? options.out : path.join(rootDir, 'backups', `${database}-${stamp}`),
  );
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) throw new Error(`${out} exists and is not empty`);
  fs.mkdirSync(out, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  // mkdir leaves a folder that exists (made by the operator, 0755 by default) as it is.
  fs.chmodSync(out, PRIVATE_FOLDER_MODE);

  // The counts and the dump read one snapshot: exported by this transaction, held open while
  // pg_dump runs, so the manifest says exactly what the archive holds even under writes.
  await client.query('begin isolation level repeatable read read only');
  const { rows: snap } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
  const rowsBefore = await countRows(client);
  const migrations = await migrationsApplied(client);
  const started = Date.now();
  const { dbArg, env } = libpqArgs(url);
  // --enable-row-security: the tables force row-level security on their owner; with no tenant
  // scope set the policy shows every row, and pg_dump must be allowed to read through it.
  await runTool(
    dump.path,
    [
      '--format=custom',
      '--no-owner',
      '--no-acl',
      '--enable-row-security',
      `--snapshot=${snap[0]!.id}`,
      `--file=${path.join(out, DUMP_FILE)}`,
      dbArg,
    ],
    env,
  );
  await client.query('commit');
  fs.chmodSync(path.join(out, DUMP_FILE), PRIVATE_FILE_MODE);

  let secretsKey: Manifest['secretsKey'] = 'none';
  if (config.secretsKey) secretsKey = 'environment';
  else if (fs.existsSync(path.join(config.dataDir, SECRETS_KEY_FILE))) {
    // Without it the integrations' secrets (SMTP passwords, Twilio tokens...) cannot be read back.
    fs.copyFileSync(path.join(config.dataDir, SECRETS_KEY_FILE), path.join(out, SECRETS_KEY_FILE));
    fs.chmodSync(path.join(out, SECRETS_KEY_FILE), PRIVATE_FILE_MODE);
    secretsKey = 'included';
  }
  const manifest: Manifest = {
    format: 'pigeonhole-backup/1',
    createdAt: new Date().toISOString(),
    database,
    serverVersion: server.version,
    pgDumpVersion: dump.version,
    migrations,
    rows: rowsBefore,
    secretsKey,
  };
  fs.writeFileSync(path.join(out, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n', {
    mode: PRIVATE_FILE_MODE,
  });
  const bytes = fs.statSync(path.join(out, DUMP_FILE)).size;
  const total = Object.values(rowsBefore).reduce((a, b) => a + b, 0);
  console.log(
    `Backed up ${database} (${total} rows in ${Object.keys(rowsBefore).length} tables, ` +
      `${(bytes / 1024 / 1024).toFixed(1)} MB) in ${Date.now() - started} ms to ${out}`,
  );
  if (secretsKey === 'included') console.log(`It includes ${SECRETS_KEY_FILE}: keep the folder as secret as the key.`);
  if (secretsKey === 'environment') console.log('SECRETS_KEY comes from the environment: keep it with the backup.');
} catch (err) {
  await client.query('rollback').catch(() => undefined);
  console.error(`Backup failed: ${err instanceof Error ? err.message : String(err)}`);
  failed = true;
} finally {
  await client.end();
  await embedded?.stop();
}
// Explicitly: tsx does not pass process.exitCode on (seen with tsx 4 on Node 20).
if (failed) process.exit(1);
