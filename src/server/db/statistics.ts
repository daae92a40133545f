import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { connectDatabase, type Db } from './client';

/** A table this large without statistics is planned as if it were nearly empty. */
const UNANALYSED_BYTES = 1024 * 1024;
/**
 * Rows changed since the last ANALYZE before a table counts as far behind: more than autovacuum
 * waits for (50 rows + 10 %), so that where autovacuum runs it gets there first.
 */
const STALE_ROWS = 1000;
const STALE_SHARE = 0.2;

/**
 * Analyses the tables the planner would misjudge: those holding data without any statistics (a
 * restored backup: pg_restore does not bring them; a bulk load) and those changed far beyond
 * their last statistics where autovacuum has not caught up (or is off). Without statistics the
 * first page of 100,000 items was planned as a sort of all of them (issue 13). Runs as the
 * migrating user, who owns the tables (the application's role may not ANALYZE). Answers the
 * tables analysed.
 */
export async function analyseTablesNeedingIt(db: Db): Promise<string[]> {
  const { rows } = await db.execute<{ name: string }>(sql`
    select c.relname as name
    from pg_class c join pg_stat_user_tables s on s.relid = c.oid
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
      and (
        (pg_relation_size(c.oid) >= ${UNANALYSED_BYTES}
          and not exists (select 1 from pg_stats p where p.schemaname = 'public' and p.tablename = c.relname))
        or s.n_mod_since_analyze > ${STALE_ROWS} + ${STALE_SHARE} * greatest(c.reltuples, 0)
      )
    order by c.relname`);
  for (const { name } of rows) await db.execute(sql.raw(`analyze ${pg.escapeIdentifier(name)}`));
  return rows.map((r) => r.name);
}

/**
 * Checks once now, then every `everyMs` (0: only now), on a connection of its own as the
 * configured user. Any instance may run it; ANALYZE twice is merely wasted work. Answers the stop.
 */
export async function keepStatistics(
  databaseUrl: string,
  everyMs: number,
  log: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  const owner = connectDatabase(databaseUrl, 1);
  let running: Promise<void> | undefined;
  const check = () =>
    (running ??= analyseTablesNeedingIt(owner.db)
      .then((analysed) => void (analysed.length && log.info({ analysed }, 'planner statistics refreshed')))
      .catch((err: unknown) => log.warn({ err }, 'planner statistics check failed'))
      .finally(() => (running = undefined)));
  await check();
  const timer = everyMs > 0 ? setInterval(() => void check(), everyMs) : undefined;
  timer?.unref();
  return async () => {
    clearInterval(timer);
    await running;
    await owner.close();
  };
}
