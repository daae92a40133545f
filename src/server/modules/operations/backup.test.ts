import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pgTool } from '../../../../scripts/backup-tools';
import { photos } from '../../db/schema';
import { adminQuery, adminRows, withDatabase } from '../../test/global-setup';
import { createTestApp, signUpWithOrganization, type TestApp } from '../../test/harness';

const run = promisify(execFile);

/**
 * pg_dump refuses a server newer than itself: on the embedded PostgreSQL 17 with Debian's 15
 * tools this round trip cannot run here (the scripts say so and name what to install); against
 * the machine's PostgreSQL 15 (TEST_DATABASE_URL, as CI's second run) it does.
 */
const adminUrl = inject('adminUrl');
const [{ num }] = (await adminRows<{ num: string }>(
  adminUrl,
  `select current_setting('server_version_num') as num`,
)) as [{ num: string }];
const major = Math.floor(Number(num) / 10_000);
const tools = await pgTool('pg_dump', major).catch((err: Error) => err);

/** `npm run <script>` as an operator runs it, with this environment; answers its output. */
async function npmScript(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', `scripts/${script}.ts`, ...args], {
      cwd: process.cwd(),
      env: { ...process.env, NODE_ENV: 'development', ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

const tableCounts = async (url: string) =>
  Object.fromEntries(
    (
      await adminRows<{ name: string; n: string }>(
        url,
        `select tablename as name, (xpath('/row/n/text()', query_to_xml(format('select count(*) as n from %I', tablename), false, true, '')))[1]::text as n
           from pg_tables where schemaname = 'public' order by 1`,
      )
    ).map((r) => [r.name, Number(r.n)]),
  );

describe.skipIf(tools instanceof Error)('npm run backup and npm run restore', () => {
  let t: TestApp;
  // Made in beforeAll: a describe that is skipped collects its body but runs no hook.
  let scratch: string;
  const restoredName = `r_${crypto.randomBytes(6).toString('hex')}`;
  const restoredUrl = withDatabase(adminUrl, restoredName);

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pigeonhole-backup-'));
    t = await createTestApp();
  });
  afterAll(async () => {
    await adminQuery(adminUrl, `drop database if exists ${restoredName} with (force)`);
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('round-trips a database: every table, a photo to the byte, the secrets key', { timeout: 180_000 }, async () => {
    // An organization made through the API, and a photo of a few hundred kilobytes.
    const { client, org } = await signUpWithOrganization(t, 'Backup Towers');
    const recipient = await client.post('/api/recipients', { firstName: 'Ada', lastName: 'Lovelace' });
    expect(recipient.statusCode).toBe(201);
    const bytes = crypto.randomBytes(300_000);
    const [photo] = await t.db
      .insert(photos)
      .values({
        organizationId: org.id,
        contentType: 'image/jpeg',
        data: bytes,
        thumbnail: bytes.subarray(0, 1000),
        width: 640,
        height: 480,
      })
      .returning({ id: photos.id });

    const sourceData = path.join(scratch, 'source-data');
    fs.mkdirSync(sourceData);
    const key = crypto.randomBytes(32).toString('base64');
    fs.writeFileSync(path.join(sourceData, 'secrets.key'), key);
    // The operator made the folder beforehand, as `mkdir` leaves it (0755): the backup closes it.
    const out = path.join(scratch, 'backup');
    fs.mkdirSync(out, { mode: 0o755 });
    fs.chmodSync(out, 0o755);
    // The desk keeps logging while the backup runs: the manifest must still match the archive.
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        const res = await client.post('/api/recipients', { firstName: 'During', lastName: `Backup ${written}` });
        expect(res.statusCode).toBe(201);
        written += 1;
      }
    })();
    const backup = await npmScript('backup', ['--out', out], { DATABASE_URL: t.url, DATA_DIR: sourceData });
    writing = false;
    await writes;
    expect(backup.output).toMatch(/Backed up t_\w+ \(\d+ rows in \d+ tables/);
    expect(backup.code).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'pigeonhole-backup/1', secretsKey: 'included' });
    // Every organization's data, photos and the secrets key: for the operator alone (issue 41, item 11).
    const mode = (file: string) => fs.statSync(file).mode & 0o777;
    expect(mode(out).toString(8)).toBe('700');
    for (const file of fs.readdirSync(out))
      expect([file, mode(path.join(out, file)).toString(8)]).toEqual([file, '600']);
    expect(fs.readdirSync(out).sort()).toEqual(['database.dump', 'manifest.json', 'secrets.key']);
    const before: Record<string, number> = manifest.rows;
    expect(before.photos).toBeGreaterThanOrEqual(1);
    expect(written).toBeGreaterThan(0);
    expect((await tableCounts(t.url)).recipients).toBeGreaterThanOrEqual(before.recipients!);

    // Into a database that does not exist yet (created), on a machine with an empty DATA_DIR.
    const targetData = path.join(scratch, 'target-data');
    const restore = await npmScript('restore', [out], { DATABASE_URL: restoredUrl, DATA_DIR: targetData });
    expect(restore.output).toMatch(/Restored t_\w+ .* counts as in the manifest/);
    expect(restore.code).toBe(0);

    expect(await tableCounts(restoredUrl)).toEqual(before);
    const [restoredPhoto] = await adminRows<{ data: Buffer }>(
      restoredUrl,
      `select data from photos where id = '${photo!.id}'`,
    );
    expect(Buffer.compare(restoredPhoto!.data, bytes)).toBe(0);
    expect(fs.readFileSync(path.join(targetData, 'secrets.key'), 'utf8')).toBe(key);
    // The tenant wall came back with it, and the migrations' journal is complete.
    const [rls] = await adminRows<{ forced: boolean }>(
      restoredUrl,
      `select relforcerowsecurity as forced from pg_class where relname = 'mail_items'`,
    );
    expect(rls!.forced).toBe(true);
    const journal = `select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(await adminRows(restoredUrl, journal)).toEqual(await adminRows(t.url, journal));

    // The application's role reads it as it would in production.
    const app = new pg.Client({ connectionString: restoredUrl });
    await app.connect();
    try {
      await app.query('set role pigeonhole_app');
      const { rows } = await app.query(`select count(*)::int as n from photos`);
      expect(rows[0].n).toBe(before.photos);
    } finally {
      await app.end();
    }

    // Never over data: a second restore into the same database is refused and changes nothing.
    const again = await npmScript('restore', [out], { DATABASE_URL: restoredUrl, DATA_DIR: targetData });
    expect(again.code).toBe(1);
    expect(again.output).toContain('The target database is not empty');
    expect(await tableCounts(restoredUrl)).toEqual(before);
  });
});

describe.runIf(tools instanceof Error)('npm run backup on a server newer than the installed pg_dump', () => {
  it('is refused with the tools to install', () => {
    expect(String(tools)).toMatch(/pg_dump for PostgreSQL \d+ or newer is needed/);
  });
});
