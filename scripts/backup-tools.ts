import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** What `npm run backup` writes beside the dump, and `npm run restore` checks against. */
export type Manifest = {
  format: 'pigeonhole-backup/1';
  createdAt: string;
  /** The database's name and the server's version it was dumped from. */
  database: string;
  serverVersion: string;
  pgDumpVersion: string;
  /** Migrations applied when dumped (drizzle's journal): a restore then applies the newer ones. */
  migrations: number;
  /**
   * Rows of every table of the public schema, counted just before the dump (writes during the
   * backup may make the dump hold a few more: it has its own snapshot, taken a moment later).
   */
  rows: Record<string, number>;
  /** Whether secrets.key (DATA_DIR's key for integration secrets) is in the backup folder. */
  secretsKey: 'included' | 'environment' | 'none';
};

export const DUMP_FILE = 'database.dump';
export const MANIFEST_FILE = 'manifest.json';
export const SECRETS_KEY_FILE = 'secrets.key';
/** A backup's files and folder: read by the operator alone (issue 41, item 11). */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

/** The server's major version (15, 17...), from `server_version_num`. */
export async function serverMajor(client: pg.Client): Promise<{ major: number; version: string }> {
  const { rows } = await client.query<{ num: string; version: string }>(
    `select current_setting('server_version_num') as num, current_setting('server_version') as version`,
  );
  return { major: Math.floor(Number(rows[0]!.num) / 10_000), version: rows[0]!.version };
}

async function majorOf(binary: string): Promise<{ major: number; version: string } | undefined> {
  try {
    const { stdout } = await run(binary, ['--version']);
    const m = /(\d+)(?:\.(\d+))?/.exec(stdout);
    return m ? { major: Number(m[1]), version: stdout.trim() } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The pg_dump or pg_restore to use with a server of major version `major`: PG_BIN_DIR's if set,
 * else Debian's for that version (/usr/lib/postgresql/N/bin), else the newest Debian one, else
 * the one on PATH. pg_dump refuses a server newer than itself (the embedded PostgreSQL is 17
 * while Debian 12 ships 15): then this says so and names what to install.
 */
export async function pgTool(
  name: 'pg_dump' | 'pg_restore',
  major: number,
): Promise<{ path: string; version: string }> {
  const candidates: string[] = [];
  if (process.env.PG_BIN_DIR) candidates.push(path.join(process.env.PG_BIN_DIR, name));
  const debian = '/usr/lib/postgresql';
  const installed = fs.existsSync(debian)
    ? fs
        .readdirSync(debian)
        .filter((d) => /^\d+$/.test(d))
        .map(Number)
        .sort((a, b) => b - a)
    : [];
  if (installed.includes(major)) candidates.push(path.join(debian, String(major), 'bin', name));
  for (const v of installed) if (v > major) candidates.push(path.join(debian, String(v), 'bin', name));
  candidates.push(name);
  const tried: string[] = [];
  for (const candidate of candidates) {
    const found = await majorOf(candidate);
    if (found && found.major >= major) return { path: candidate, version: found.version };
    tried.push(found ? `${candidate} (${found.major})` : `${candidate} (not found)`);
  }
  throw new Error(
    `${name} for PostgreSQL ${major} or newer is needed (tried: ${tried.join(', ')}). Install the ` +
      `client tools of that version (e.g. postgresql-client-${major} from apt.postgresql.org) or set ` +
      `PG_BIN_DIR to their bin folder.`,
  );
}

/** Rows of every table of the public schema, by name. */
export async function countRows(client: pg.Client): Promise<Record<string, number>> {
  const { rows: tables } = await client.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const { rows } = await client.query<{ n: string }>(`select count(*) as n from ${pg.escapeIdentifier(name)}`);
    counts[name] = Number(rows[0]!.n);
  }
  return counts;
}

/** Migrations recorded in drizzle's journal (0 when it does not exist). */
export async function migrationsApplied(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: string | null }>(
    `select case when to_regclass('drizzle.__drizzle_migrations') is null then null
            else (select count(*) from drizzle.__drizzle_migrations)::text end as n`,
  );
  return Number(rows[0]!.n ?? 0);
}

export function runTool(binary: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return run(binary, args, { env, maxBuffer: 64 * 1024 * 1024 });
}

/**
 * libpq reads the URL itself; a password in it works, but goes on the command line, where other
 * users of the machine can read it (ps). So it is handed over in PGPASSWORD instead.
 */
export function libpqArgs(url: string): { dbArg: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbArg: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** `--name value` and `--flag` options after the positional ones. */
export function parseArgs(argv: string[]): { positional: string[]; options: Record<string, string | true> } {
  const positional: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const [key, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    if (inline !== undefined) options[key] = inline;
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) options[key] = argv[++i]!;
    else options[key] = true;
  }
  return { positional, options };
}
