import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { connectDatabase, type Database } from './client';
import { analyseTablesNeedingIt } from './statistics';
import { createTestApp, type TestApp } from '../test/harness';

let t: TestApp;
let owner: Database;

beforeAll(async () => {
  t = await createTestApp();
  owner = connectDatabase(t.url, 1); // the configured user, as the server's check runs
});
afterAll(() => owner.close());

const statisticsOf = async (table: string) =>
  (await t.asOwner<{ n: number }>(`select count(*)::int n from pg_stats where tablename = '${table}'`))[0]!.n;

describe('planner statistics (a restored backup, a bulk load, autovacuum off)', () => {
  it('are made for tables that hold data without any, and only for those', async () => {
    await t.asOwner(`create table restored_probe as select g, md5(g::text) as h from generate_series(1, 30000) g`);
    await t.asOwner(`create table small_probe as select g from generate_series(1, 10) g`);
    try {
      expect(await statisticsOf('restored_probe')).toBe(0);
      const analysed = await analyseTablesNeedingIt(owner.db);
      expect(analysed).toContain('restored_probe');
      expect(analysed).not.toContain('small_probe');
      expect(await statisticsOf('restored_probe')).toBeGreaterThan(0);
      expect(await analyseTablesNeedingIt(owner.db)).not.toContain('restored_probe');
    } finally {
      await t.asOwner(`drop table restored_probe; drop table small_probe`);
    }
  });

  it('are made again for a table changed far beyond its last statistics', async () => {
    await t.asOwner(`create table grown_probe (g int)`);
    try {
      await t.asOwner(`insert into grown_probe select generate_series(1, 100); analyze grown_probe`);
      expect(await analyseTablesNeedingIt(owner.db)).not.toContain('grown_probe');
      await t.asOwner(`insert into grown_probe select generate_series(1, 5000)`); // 50 times its size
      expect(await analyseTablesNeedingIt(owner.db)).toContain('grown_probe');
      expect(await analyseTablesNeedingIt(owner.db)).not.toContain('grown_probe');
    } finally {
      await t.asOwner(`drop table grown_probe`);
    }
  });
});

describe('the planner settings of the application', () => {
  it('are those of SSD storage on every pooled connection', async () => {
    const { rows } = await t.db.execute<{ random_page_cost: string }>(sql`show random_page_cost`);
    expect(rows[0]!.random_page_cost).toBe('1.1');
  });
});
