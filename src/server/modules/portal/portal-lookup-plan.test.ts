import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../db/client';
import { appRoleFor } from '../../db/row-level-security';
import { createTestApp, type TestApp } from '../../test/harness';
import { portalRepository } from './portal.repository';

/**
 * Issue 41, item 9 (decision 051): an anonymous "email me a link" finds the recipients with that
 * address in every organization. It read every recipient of the platform (176-221 ms a phone
 * lookup at 200,000); it must read the index of the normalised email or phone (migration 0033),
 * with planner statistics and before any (a bulk load, a restore: decision 026), as the app's
 * role under row-level security (which keeps an index of a non-LEAKPROOF expression such as
 * regexp_replace(phone, …) out of the plan: hence stored columns).
 */

let t: TestApp;
let one: Database;

const ORGANIZATIONS = 20;
const PER_ORGANIZATION = 1_000;

beforeAll(async () => {
  t = await createTestApp();
  one = connectDatabase(t.url, 1, { role: await appRoleFor(t.url) });
  // this file's own database: nothing analyses it until the test says so
  await t.asOwner(`alter table recipients set (autovacuum_enabled = false)`);
  await t.asOwner(`
    insert into organizations (name) select 'Building ' || g from generate_series(1, ${ORGANIZATIONS}) g;
    insert into recipients (organization_id, first_name, last_name, email, phone, is_active)
    select o.id, 'First ' || g, 'Last ' || g,
           case when g % 10 = 0 then null else 'Person.' || g || '@Example.com' end,
           case when g % 7 = 0 then null else '+1 (555) ' || lpad(g::text, 7, '0') end,
           g % 50 <> 0
    from organizations o, generate_series(1, ${PER_ORGANIZATION}) g`);
});
afterAll(() => one.close());

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  Plans?: PlanNode[];
};
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/** The lookup's rows, and the plan of the statement it sent, run again under EXPLAIN ANALYZE as the app's role. */
async function lookup(address: string) {
  const sent: { text: string; values?: unknown[] }[] = [];
  const query = one.pool.query.bind(one.pool);
  one.pool.query = ((config: { text: string; values?: unknown[] }, ...rest: unknown[]) => {
    if (typeof config === 'object' && config.text) {
      sent.push({ text: config.text, values: config.values ?? (rest[0] as unknown[] | undefined) });
    }
    return (query as (...a: unknown[]) => unknown)(config, ...rest);
  }) as typeof one.pool.query;
  let rows: Awaited<ReturnType<typeof portalRepository.recipientsByAddress>>;
  try {
    rows = await portalRepository.recipientsByAddress(one.db, address);
  } finally {
    one.pool.query = query;
  }
  const statement = sent.find((s) => s.text.includes('"recipients"'))!;
  const { rows: explained } = await one.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `explain (analyze, format json) ${statement.text}`,
    statement.values,
  );
  const plan = nodes(explained[0]!['QUERY PLAN'][0].Plan);
  return { rows, recipientScans: plan.filter((n) => n['Relation Name'] === 'recipients') };
}

const expectIndexRead = (scans: PlanNode[], index: string) => {
  expect(scans.map((n) => n['Node Type'])).not.toContain('Seq Scan');
  expect(scans.map((n) => n['Index Name'])).toContain(index);
};

describe.each([
  ['without planner statistics', false],
  ['after ANALYZE', true],
])('asking for a link finds its recipients by an index, %s', (_name, analyze) => {
  beforeAll(async () => {
    if (analyze) await t.asOwner('analyze recipients');
    const [table] = await t.asOwner<{ stats: number }>(
      `select count(*)::int stats from pg_stats where tablename = 'recipients'`,
    );
    expect(table!.stats > 0).toBe(analyze);
  });

  it('an email, in any case: the index of the stored lower-case email, every organization’s active holder and no one else', async () => {
    const { rows, recipientScans } = await lookup('PERSON.421@example.COM');
    expectIndexRead(recipientScans, 'recipients_email_normalized_idx');
    expect(rows).toHaveLength(ORGANIZATIONS);
    expect(new Set(rows.map((r) => r.organizationId)).size).toBe(ORGANIZATIONS);
    expect(rows.every((r) => r.email === 'Person.421@Example.com')).toBe(true);
  });

  it('a phone number, written any way: the index of the stored digits', async () => {
    const { rows, recipientScans } = await lookup('1-555-000-0421');
    expectIndexRead(recipientScans, 'recipients_phone_digits_idx');
    expect(rows).toHaveLength(ORGANIZATIONS);
    expect(rows.every((r) => r.phone === '+1 (555) 0000421')).toBe(true);
  });

  it('an inactive recipient is not found, by the same index', async () => {
    // g = 450: g % 50 = 0, inactive everywhere.
    const byEmail = await lookup('person.450@example.com');
    expectIndexRead(byEmail.recipientScans, 'recipients_email_normalized_idx');
    expect(byEmail.rows).toEqual([]);
    const byPhone = await lookup('+15550000450');
    expectIndexRead(byPhone.recipientScans, 'recipients_phone_digits_idx');
    expect(byPhone.rows).toEqual([]);
  });
});
