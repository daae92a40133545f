import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness';
import { explained, oneConnection, type PlanNode } from '../../test/plans';
import { portalRepository } from './portal.repository';

/**
 * Issue 41, item 9 (decision 051): an anonymous "email me a link" finds the recipients with that
 * address in every organization. It read every recipient of the platform (176-221 ms a phone
 * lookup at 200,000); it must read the index of the normalised email or phone (migration 0033),
 * with planner statistics and before any (a bulk load, a restore: decision 026), as the app's
 * role under row-level security (which keeps an index of a non-LEAKPROOF expression such as
 * regexp_replace(phone, …) out of the plan: hence stored columns).
 */

const t = await createTestApp();
const one = await oneConnection(t);

const ORGANIZATIONS = 20;
const PER_ORGANIZATION = 1_000;

beforeAll(async () => {
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

/** The lookup's rows, and the scans of recipients in the plan of the statement it sent, as the app's role. */
async function lookup(address: string) {
  const { answer, plan } = await explained(
    one,
    (db) => portalRepository.recipientsByAddress(db, address),
    '"recipients"',
  );
  return { rows: answer, recipientScans: plan.filter((n) => n['Relation Name'] === 'recipients') };
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
