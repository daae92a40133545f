import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { PLANNER_SETTINGS, type Db } from '../../src/server/db/client';
import * as schema from '../../src/server/db/schema';

export type ExplainTarget = { name: string; run: (db: Db) => Promise<unknown> };
export type ExplainSummary = {
  name: string;
  /** Median over the runs, after one unmeasured run. */
  executionMs: number;
  planningMs: number;
  /** How mail_items is read, e.g. "Index Scan using mail_items_org_status_arrived_idx". */
  mailItemsAccess: string[];
  /** mail_items rows (or index entries) the scans went through, and how many of them a filter threw away. */
  mailItemsVisited: number;
  mailItemsFiltered: number;
  /** How the rows are sorted when they are not read in index order. */
  sort: string | undefined;
  plan: string;
};

const SCAN =
  /(Seq Scan|Parallel Seq Scan|Index Only Scan(?: Backward)?|Index Scan(?: Backward)?|Bitmap Heap Scan|Bitmap Index Scan)(?: using (\S+))?(?: on (\S+))?/;

/**
 * The SQL a repository call sends (caught through drizzle's logger, so it is exactly the server's
 * statement and parameters), each run under EXPLAIN ANALYZE on one connection, no load. Only the
 * first statement of a call is explained.
 */
export async function explainStatements(
  databaseUrl: string,
  targets: ExplainTarget[],
  runs = 5,
  { scopedTo }: { scopedTo?: string } = {},
) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  // As the server runs them: the application's role, under row-level security, scoped to one
  // organization (the policy's condition is part of every plan).
  if (scopedTo) {
    pool.on('connect', (client) => {
      void client.query(
        `set role pigeonhole_app; ${PLANNER_SETTINGS}; select set_config('pigeonhole.organization_ids', '${scopedTo}', false)`,
      );
    });
  }
  let caught: { query: string; params: unknown[] } | undefined;
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (query, params) => void (caught ??= { query, params }) },
  }) as unknown as Db;
  // Prepared statements (db/prepared.ts) go to the pool directly, past drizzle's logger.
  const poolQuery = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((config: unknown, ...rest: unknown[]) => {
    if (config && typeof config === 'object' && 'name' in config) {
      const { text, values } = config as unknown as { text: string; values?: unknown[] };
      caught ??= { query: text, params: values ?? [] };
    }
    return poolQuery(config, ...rest);
  }) as typeof pool.query;
  try {
    const summaries: ExplainSummary[] = [];
    for (const target of targets) {
      caught = undefined;
      await target.run(db);
      if (!caught) throw new Error(`${target.name}: no SQL caught`);
      const { query, params } = caught;
      const explain = async () =>
        (await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${query}`, params)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      await explain();
      const plans: string[] = [];
      for (let i = 0; i < runs; i++) plans.push(await explain());
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      const executionMs = median(plans.map((plan) => figure(plan, 'Execution Time')));
      // The plan shown is the one of the median execution.
      const plan = plans.find((p) => figure(p, 'Execution Time') === executionMs)!;
      summaries.push({
        name: target.name,
        executionMs,
        planningMs: median(plans.map((p) => figure(p, 'Planning Time'))),
        ...mailItemsReads(plan),
        sort: sortNode(plan),
        plan,
      });
    }
    return summaries;
  } finally {
    await pool.end();
  }
}

function mailItemsReads(plan: string) {
  const { paths, visited, filtered } = accessPaths(plan, 'mail_items');
  return { mailItemsAccess: paths, mailItemsVisited: visited, mailItemsFiltered: filtered };
}

function figure(plan: string, label: string): number {
  const match = new RegExp(`${label}: ([0-9.]+) ms`).exec(plan);
  return match ? Number(match[1]) : NaN;
}

/**
 * The scan nodes that read `table` (a Bitmap Index Scan names the index only; it feeds a Bitmap
 * Heap Scan on the table), and the index entries or rows they went through: those returned plus
 * those a filter threw away.
 */
function accessPaths(plan: string, table: string): { paths: string[]; visited: number; filtered: number } {
  const found = new Set<string>();
  let visited = 0;
  let filtered = 0;
  const lines = plan.split('\n');
  lines.forEach((line, i) => {
    const m = SCAN.exec(line);
    if (!m) return;
    const [, kind, index, relation] = m;
    if (kind === 'Bitmap Index Scan' && relation?.startsWith(`${table}_`)) {
      found.add(`Bitmap Index Scan on ${relation}`);
      return;
    }
    if (relation !== table) return;
    found.add(index ? `${kind} using ${index}` : kind!);
    const rows = /actual time=\S+ rows=(\d+) loops=(\d+)/.exec(line);
    if (rows) visited += Number(rows[1]) * Number(rows[2]);
    for (const detail of lines.slice(i + 1)) {
      if (/->/.test(detail)) break;
      const removed = /Rows Removed by (?:Filter|Index Recheck): (\d+)/.exec(detail);
      if (removed) filtered += Number(removed[1]);
    }
  });
  return { paths: [...found], visited: visited + filtered, filtered };
}

/** 'incremental on <presorted key>', 'full (<method>)', or undefined when the rows come in index order. */
function sortNode(plan: string): string | undefined {
  const presorted = /Presorted Key: (.+)/.exec(plan);
  if (/Incremental Sort/.test(plan)) return `incremental, presorted on ${presorted?.[1]?.trim() ?? '?'}`;
  if (!/(->\s+|^)Sort\s+\(/m.test(plan)) return undefined;
  const method = /Sort Method: ([^ ]+(?: [^ ]+)?)/.exec(plan);
  return `full sort (${method?.[1]?.trim() ?? '?'})`;
}
