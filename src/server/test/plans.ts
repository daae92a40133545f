import { connectDatabase, type Database } from '../db/client';
import { appRoleFor } from '../db/row-level-security';
import { atFileEnd } from './file-cleanups';
import type { TestApp } from './harness';

/**
 * One connection to the test app's database as the application's role, held by row-level
 * security as the app is, and closed after the file: its prepared statements can be read back,
 * and the statements a read sends on it can be caught and explained.
 */
export async function oneConnection(t: TestApp): Promise<Database> {
  const one = connectDatabase(t.url, 1, { role: await appRoleFor(t.url) });
  atFileEnd(() => one.close());
  return one;
}

/** A node of EXPLAIN (ANALYZE, FORMAT JSON)'s plan. */
export type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
};

/** The plan's nodes, the top one first. */
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

type Within = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * What `read` answers on `one`, and the plan of the first statement it sent whose text includes
 * `sentTo`, run again with its values under EXPLAIN ANALYZE. `within` wraps the read and the
 * explain alike (an organization's scope).
 */
export async function explained<R>(
  one: Database,
  read: (db: Database['db']) => Promise<R>,
  sentTo: string,
  within: Within = (work) => work(),
): Promise<{ answer: R; plan: PlanNode[] }> {
  const sent: { text: string; values?: unknown[] }[] = [];
  const query = one.pool.query.bind(one.pool);
  one.pool.query = ((config: { text: string; values?: unknown[] }, ...rest: unknown[]) => {
    if (typeof config === 'object' && config.text) {
      sent.push({ text: config.text, values: config.values ?? (rest[0] as unknown[] | undefined) });
    }
    return (query as (...a: unknown[]) => unknown)(config, ...rest);
  }) as typeof one.pool.query;
  let answer: R;
  try {
    answer = await within(() => read(one.db));
  } finally {
    one.pool.query = query;
  }
  const statement = sent.find((s) => s.text.includes(sentTo))!;
  const { rows } = await within(() =>
    one.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `explain (analyze, format json) ${statement.text}`,
      statement.values,
    ),
  );
  return { answer, plan: nodes(rows[0]!['QUERY PLAN'][0].Plan) };
}
