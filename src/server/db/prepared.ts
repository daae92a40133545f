import { createHash } from 'node:crypto';
import { fillPlaceholders, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';

const dialect = new PgDialect();
const names = new Map<string, string>();

/** A name per statement text: the same text always gets the same name, different texts never share one. */
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `q_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    // the texts are the filter shapes of a few lists: a handful, unless a caller inlines values
    if (names.size < 1000) names.set(text, name);
  }
  return name;
}

/**
 * Runs a statement whose text is built per request (it depends on which filters are set) as a
 * named prepared statement. PostgreSQL then parses each text once per connection and, after five
 * runs, keeps a generic plan when it costs no more than planning each run (plan_cache_mode auto):
 * planning the list statements cost as much as running them (decision 021, 025). Values stay
 * parameters; only what shapes the plan (which filters, the order, the page size) is in the text.
 * Inside a transaction (no pool at hand), or with `prepare: false` (a statement whose best plan
 * depends on its values), it runs unnamed and is planned for its values each time.
 */
export async function queryPrepared<Row>(
  db: DbOrTx,
  statement: SQL,
  { prepare = true }: { prepare?: boolean } = {},
): Promise<Row[]> {
  if (!prepare || !('$client' in db)) return (await db.execute(statement)).rows as Row[];
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const result = await db.$client.query({ name: nameOf(text), text, values: params as unknown[] });
  return result.rows as Row[];
}

/** A statement's values by name, and what `build` gets for them: each value, or its placeholder. */
export type ShapeValues = Record<string, unknown>;
export type ValuesOrPlaceholders<V extends ShapeValues> = { [K in keyof V]: V[K] | Placeholder<K & string> };

type BuiltShape = { name: string; text: string; params: unknown[] };
const shapes = new Map<string, BuiltShape>();

/**
 * Like queryPrepared, for a hot statement built by Drizzle: its text and fixed parameters are
 * built once per `shape` (with a placeholder for each of `values`), and each run only fills the
 * values in. Building the Mail Intake page with Drizzle took a fifth of the server's CPU per
 * request (issue 13). `shape` must name everything that changes the text (which filters, the
 * order, the page size); `values` are what may differ between runs of one text (the
 * organization, the offset). Inside a transaction it is built with the values and run unnamed.
 */
export async function queryShape<Row, V extends ShapeValues>(
  db: DbOrTx,
  shape: string,
  values: V,
  build: (values: ValuesOrPlaceholders<V>) => SQL,
): Promise<Row[]> {
  if (!('$client' in db)) return (await db.execute(build(values))).rows as Row[];
  let built = shapes.get(shape);
  if (!built) {
    const placeholders = Object.fromEntries(Object.keys(values).map((key) => [key, sql.placeholder(key)]));
    const { sql: text, params } = dialect.sqlToQuery(build(placeholders as ValuesOrPlaceholders<V>));
    built = { name: nameOf(text), text, params };
    // a few dozen shapes in practice; a bug making a shape per value must not grow the map forever
    if (shapes.size < 1000) shapes.set(shape, built);
  }
  // pg refuses a name prepared on the connection with another text: two shapes cannot share one
  const result = await db.$client.query({
    name: built.name,
    text: built.text,
    values: fillPlaceholders(built.params, values),
  });
  return result.rows as Row[];
}

/**
 * A page of an organization's list. With a `shape` (what the text depends on besides the page's
 * position), a statement built once per shape and prepared (queryShape): the first page and the
 * later ones are shapes of their own, as pageClause leaves the offset out of the first. Without
 * one (a search, another filter), built and planned for its values every time.
 */
export async function queryPage<Row>(
  db: DbOrTx,
  shape: string | undefined,
  { organizationId, offset }: { organizationId: string; offset: number },
  build: (organizationId: string | SQLWrapper, offset: number | SQLWrapper) => SQL,
): Promise<Row[]> {
  if (!shape) return queryPrepared<Row>(db, build(organizationId, offset), { prepare: false });
  const later = offset > 0;
  return queryShape<Row, { organizationId: string; offset: number }>(
    db,
    `${shape} ${later ? 'later' : 'first'}`,
    { organizationId, offset },
    (v) => build(v.organizationId, later ? v.offset : 0),
  );
}

/**
 * `limit` and `offset` for a prepared page statement. The page size goes into the text (a checked
 * integer with a few values): given as a parameter, the planner assumes a tenth of the table and
 * never keeps a generic plan. The offset stays a parameter (or a placeholder), and is left out
 * on the first page.
 */
export function pageClause({ limit, offset }: { limit: number; offset: number | SQLWrapper }): SQL {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`pageClause: bad limit ${limit}`);
  return typeof offset === 'number' && offset <= 0
    ? sql` limit ${sql.raw(String(limit))}`
    : sql` limit ${sql.raw(String(limit))} offset ${offset}`;
}

/**
 * The page sizes the screens ask for (Mail Intake and History 25, Pending Pickups and Recipients
 * 50, the dashboard's recent activity 5, ...). Only these are prepared: each size is a statement
 * of its own on every connection, and a caller free to pick any size up to 100 must not make a
 * connection keep a hundred of them.
 */
const PREPARED_PAGE_SIZES: ReadonlySet<number> = new Set([5, 10, 20, 25, 50, 100]);
export const isPreparedPageSize = (limit: number) => PREPARED_PAGE_SIZES.has(limit);
