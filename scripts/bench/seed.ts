import pg from 'pg';

/**
 * Bulk data for the benchmark, written straight through SQL: going through the API would take
 * minutes for 30,000 items, and one `insert ... select from generate_series` takes well under a second.
 */

export type SeedPlan = { items: number; recipients: number };

/** The benchmarked organization and the noise around it, so that every query must filter by organization. */
export const MAIN_ORG: SeedPlan = { items: 10_000, recipients: 200 };
export const OTHER_ORGS = { count: 20, plan: { items: 1_000, recipients: 50 } satisfies SeedPlan };

export async function seedBenchData(databaseUrl: string, mainOrganizationId: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await seedOrganization(client, mainOrganizationId, MAIN_ORG);
    for (const id of await insertOtherOrganizations(client, OTHER_ORGS.count)) {
      await seedOrganization(client, id, OTHER_ORGS.plan);
    }
    // Fresh bulk rows have no statistics yet, so the planner would guess. VACUUM as well: it sets the
    // visibility map that index-only scans need, as autovacuum would in steady state. Left to
    // autovacuum, it would happen at some random moment during the measurements instead.
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

async function insertOtherOrganizations(client: pg.Client, count: number): Promise<string[]> {
  const result = await client.query<{ id: string }>(
    `insert into organizations (name) select 'Bench neighbour ' || g from generate_series(1, $1::int) g returning id`,
    [count],
  );
  return result.rows.map((r) => r.id);
}

async function seedOrganization(client: pg.Client, organizationId: string, plan: SeedPlan): Promise<void> {
  await insertRecipients(client, organizationId, plan.recipients);
  await insertMailItems(client, organizationId, plan.items);
}

/** One in ten recipients is inactive, so the "active recipients" count has something to filter. */
async function insertRecipients(client: pg.Client, organizationId: string, count: number) {
  await client.query(
    `insert into recipients (organization_id, first_name, last_name, email, unit, recipient_type, is_active)
     select $1::uuid, 'First' || g, 'Last' || g, 'recipient' || g || '@bench.test', 'Unit ' || (g % 60),
            (array['guest', 'employee', 'resident'])[1 + g % 3]::recipient_type, g % 10 <> 0
     from generate_series(1, $2::int) g`,
    [organizationId, count],
  );
}

/**
 * Status mix (by g % 100): 12 % pending, 12 % notified, 6 % returned, 70 % delivered.
 * Arrivals spread uniformly over the last 90 days, except every 40th item, which arrived
 * earlier today (UTC midnight .. now; organizations default to UTC) so "today's mail" is not zero.
 */
async function insertMailItems(client: pg.Client, organizationId: string, count: number) {
  await client.query(
    `with r as (select array_agg(id order by id) as ids from recipients where organization_id = $1::uuid),
     raw as (
       select g,
              case when g % 40 = 0
                   then date_trunc('day', now()) + random() * (now() - date_trunc('day', now()))
                   else now() - random() * interval '90 days' end as arrived_at,
              case when g % 100 < 12 then 'pending' when g % 100 < 24 then 'notified'
                   when g % 100 < 30 then 'returned' else 'delivered' end as status
       from generate_series(1, $2::int) g
     )
     insert into mail_items (organization_id, recipient_id, tracking_number, type, sender, courier_company,
                             size, status, arrived_at, notified_at, delivered_at)
     select $1::uuid,
            r.ids[1 + (raw.g * 7919) % array_length(r.ids, 1)],
            'BENCH' || lpad(raw.g::text, 10, '0'),
            (array['package', 'letter', 'certified_mail'])[1 + raw.g % 3],
            (array['Acme Corp', 'Globex', 'Initech', 'Umbrella', 'Stark Industries'])[1 + raw.g % 5],
            (array['FedEx', 'UPS', 'DHL', 'USPS', 'Amazon'])[1 + raw.g % 5],
            (array['small', 'medium', 'large'])[1 + raw.g % 3],
            raw.status,
            raw.arrived_at,
            case when raw.status <> 'pending' then raw.arrived_at + interval '1 hour' end,
            case when raw.status = 'delivered' then raw.arrived_at + interval '1 day' end
     from raw, r`,
    [organizationId, count],
  );
}
