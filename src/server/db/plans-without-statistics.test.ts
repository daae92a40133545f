import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { withTenants } from './tenant-scope';
import { dashboardRepository } from '../modules/dashboard/dashboard.repository';
import { mailItemsRepository } from '../modules/mail-items/mail-items.repository';
import { createTestApp } from '../test/harness';
import { explained, oneConnection, type PlanNode } from '../test/plans';

/**
 * The desk's first pages before ANALYZE (decision 026): mail items bulk-loaded into a migrated
 * database (a data-only restore, an import; this machine's autovacuum is off) leave the planner
 * with no statistics and no row count, so it guesses an organization holds a handful of rows.
 * The pages must still read only their rows, in the index's order, not every item of the
 * organization followed by a sort (80 ms a page at 100,000 items instead of 1).
 */

const t = await createTestApp();
const one = await oneConnection(t);
let organizationId: string;

const ITEMS = 40_000;

beforeAll(async () => {
  // this file's own database: nothing else analyses it while the plans are looked at
  for (const table of ['mail_items', 'recipients', 'mailroom_locations', 'mailrooms']) {
    await t.asOwner(`alter table ${table} set (autovacuum_enabled = false)`);
  }
  const [org] = await t.asOwner<{ id: string }>(
    `insert into organizations (name) values ('Bulk loaded'), ('Neighbour') returning id`,
  );
  organizationId = org!.id;
  await t.asOwner(`
    insert into recipients (organization_id, first_name, last_name)
    select o.id, 'First ' || g, 'Last ' || g from organizations o, generate_series(1, 200) g;
    insert into mailrooms (organization_id, name) select id, 'Main' from organizations;
    insert into mailroom_locations (organization_id, mailroom_id, name)
    select m.organization_id, m.id, 'Shelf ' || g from mailrooms m, generate_series(1, 10) g;
    insert into mail_items (organization_id, recipient_id, location_id, type, status, tracking_number, arrived_at)
    select o.id, r.ids[1 + g % 200], l.ids[1 + g % 10], 'package',
           case when g % 20 = 0 then 'pending' when g % 20 = 1 then 'notified' else 'delivered' end,
           '1Z' || lpad(g::text, 16, '0'), now() - make_interval(mins => g)
    from organizations o
    join (select organization_id, array_agg(id) ids from recipients group by 1) r on r.organization_id = o.id
    join (select organization_id, array_agg(id) ids from mailroom_locations group by 1) l on l.organization_id = o.id,
    generate_series(1, case when o.id = '${organizationId}' then ${ITEMS} else 2000 end) g`);
});

/** The plan of the first statement `read` sends to mail_items, run under EXPLAIN ANALYZE in the organization's scope. */
async function planOf(read: (db: Database['db']) => Promise<unknown>): Promise<PlanNode[]> {
  return (await explained(one, read, 'mail_items', (work) => withTenants([organizationId], work))).plan;
}

const mailItemScans = (plan: PlanNode[]) => plan.filter((n) => n['Relation Name'] === 'mail_items');

describe('the desk’s first pages without planner statistics', () => {
  it('are looked at on a table the planner knows nothing about', async () => {
    const [table] = await t.asOwner<{ reltuples: number; stats: number }>(
      `select reltuples, (select count(*)::int from pg_stats where tablename = 'mail_items') stats
       from pg_class where relname = 'mail_items'`,
    );
    expect(table).toEqual({ reltuples: -1, stats: 0 });
  });

  it.each([
    [
      'Mail Intake',
      25,
      (db: Database['db']) => mailItemsRepository.page(db, organizationId, { order: 'desc', limit: 25, offset: 0 }),
    ],
    [
      'Pending Pickups',
      50,
      (db: Database['db']) =>
        mailItemsRepository.page(
          db,
          organizationId,
          { statuses: ['pending', 'notified'], order: 'asc', limit: 50, offset: 0 },
          'summary',
        ),
    ],
    ['the recent activity', 5, (db: Database['db']) => dashboardRepository.recent(db, organizationId, 5)],
  ])('%s reads its page of items in order, not the organization’s items and a sort', async (_name, size, read) => {
    const plan = await planOf(read);
    const scans = mailItemScans(plan);
    expect(scans).toHaveLength(1);
    expect(scans[0]!['Node Type']).toBe('Index Scan');
    expect(scans[0]!['Actual Rows'] * scans[0]!['Actual Loops']).toBeLessThanOrEqual(size);
    expect(plan.map((n) => n['Node Type'])).not.toContain('Sort');
    const [table] = await t.asOwner<{ stats: number }>(
      `select count(*)::int stats from pg_stats where tablename = 'mail_items'`,
    );
    expect(table!.stats, 'still without statistics').toBe(0);
  });

  it('Needs a recipient (decision 041) reads its own index in order, not the organization’s items', async () => {
    await t.asOwner(`
      insert into mail_items (organization_id, type, status, arrived_at)
      select '${organizationId}', 'package', 'needs_recipient', now() - make_interval(mins => g)
      from generate_series(1, 60) g`);
    const plan = await planOf((db) => mailItemsRepository.needsRecipientPage(db, organizationId, 0));
    const scans = mailItemScans(plan);
    expect(scans.map((n) => n['Index Name'])).toEqual(['mail_items_org_needs_recipient_idx']);
    expect(scans[0]!['Actual Rows']).toBe(50);
    expect(plan.map((n) => n['Node Type'])).not.toContain('Sort');
  });

  it.each([
    ['rows', 'summary'],
    ['full items', 'full'],
  ] as const)(
    'a page of %s finds each item’s recipient, location and mailroom by key, reading no other rows',
    async (_name, view) => {
      const plan = await planOf((db) =>
        mailItemsRepository.page(db, organizationId, { order: 'desc', limit: 25, offset: 0 }, view),
      );
      const lookups = plan.filter((n) =>
        ['recipients', 'mailroom_locations', 'mailrooms'].includes(n['Relation Name'] ?? ''),
      );
      expect(lookups.map((n) => n['Relation Name']).sort()).toEqual([
        'mailroom_locations',
        'mailrooms',
        'mailrooms',
        'recipients',
      ]);
      for (const lookup of lookups) {
        // an index of the organization alone reads the organization's rows and filters them by id
        expect(lookup['Rows Removed by Filter'] ?? 0, `${lookup['Relation Name']} by ${lookup['Index Name']}`).toBe(0);
        expect(lookup['Actual Rows']).toBeLessThanOrEqual(1);
      }
    },
  );
});
