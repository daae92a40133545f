import pg from 'pg';
import { insertOrganizations, insertRecipients, insertStorage, unevenSplit } from './front-desk-seed';

/**
 * History data for the benchmark (issue 4), straight through SQL (`insert ... select` over
 * generate_series): HISTORY_SEED.organizations organizations, the signed-in user's holding
 * `main.items`, the others the rest between them, unevenly. No history rows: the History screen
 * reads mail_items only.
 *
 * Arrivals spread over two years, denser towards now (age = 730 days x u², u uniform: about 10 %
 * of an organization's items in the last 7 days, 35 % in the last 90), so range 7, 90 and all time
 * differ. Status by a random draw: 5 % pending, 3 % notified, 2 % returned, 90 % delivered; items
 * still waiting arrived in the last few days. Most items have a recipient (2,000 in the big organization).
 *
 * For speed the secondary indexes of mail_items are dropped during the insert and rebuilt after
 * (the same definitions, read from pg_indexes), and foreign-key triggers are skipped
 * (session_replication_role = replica; every id written comes from the rows just inserted).
 */
export const HISTORY_SEED = {
  organizations: Number(process.env.BENCH_ORGS ?? 1000),
  totalItems: Number(process.env.BENCH_ITEMS ?? 1_000_000),
  main: { items: Number(process.env.BENCH_MAIN_ITEMS ?? 100_000), recipients: 2000, locations: 10 },
  other: { recipients: 20, locations: 3 },
  days: 730,
} as const;

export type HistorySeed = {
  items: number;
  mainItems: number;
  timings: { insertMs: number; indexMs: number; vacuumMs: number };
  fkTriggersSkipped: boolean;
};

export async function seedHistory(databaseUrl: string, mainOrganizationId: string, userId: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select setseed(0.42)');
    await client.query(`set synchronous_commit = off`);
    await client.query(`set maintenance_work_mem = '512MB'`);
    await client.query(`set work_mem = '256MB'`);
    let fkTriggersSkipped = true;
    try {
      await client.query(`set session_replication_role = replica`);
    } catch {
      fkTriggersSkipped = false;
    }

    const started = performance.now();
    const others = await insertOrganizations(client, HISTORY_SEED.organizations - 1);
    const orgIds = [mainOrganizationId, ...others];
    const itemCounts = [
      HISTORY_SEED.main.items,
      ...unevenSplit(HISTORY_SEED.totalItems - HISTORY_SEED.main.items, others.length),
    ];
    await insertRecipients(client, orgIds, [
      HISTORY_SEED.main.recipients,
      ...others.map(() => HISTORY_SEED.other.recipients),
    ]);
    await insertStorage(client, orgIds, [
      HISTORY_SEED.main.locations,
      ...others.map(() => HISTORY_SEED.other.locations),
    ]);

    const indexes = (
      await client.query<{ indexname: string; indexdef: string }>(
        `select i.indexname, i.indexdef from pg_indexes i
         where i.tablename = 'mail_items' and i.schemaname = current_schema()
           and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
      )
    ).rows;
    for (const i of indexes) await client.query(`drop index "${i.indexname}"`);
    await insertMailItems(client, orgIds, itemCounts, mainOrganizationId, userId);
    const insertMs = performance.now() - started;

    const indexStarted = performance.now();
    for (const i of indexes) await client.query(i.indexdef);
    const indexMs = performance.now() - indexStarted;
    await client.query(`set session_replication_role = origin`).catch(() => undefined);

    await client.query(`update organizations set max_packages_per_month = -1 where id = $1`, [mainOrganizationId]);
    const vacuumStarted = performance.now();
    await client.query('vacuum analyze');
    const vacuumMs = performance.now() - vacuumStarted;

    const { items, main } = (
      await client.query<{ items: number; main: number }>(
        `select count(*)::int items, (count(*) filter (where organization_id = $1))::int main from mail_items`,
        [mainOrganizationId],
      )
    ).rows[0]!;
    return {
      items,
      mainItems: main,
      timings: { insertMs, indexMs, vacuumMs },
      fkTriggersSkipped,
    } satisfies HistorySeed;
  } finally {
    await client.end();
  }
}

async function insertMailItems(
  client: pg.Client,
  orgIds: string[],
  counts: number[],
  mainOrganizationId: string,
  userId: string,
) {
  await client.query(
    `with org as (select * from unnest($1::uuid[], $2::int[]) o(id, n)),
     rec as (select organization_id, array_agg(id order by id) ids from recipients group by organization_id),
     loc as (select organization_id, array_agg(id order by name) ids, (array_agg(mailroom_id))[1] mailroom_id
             from mailroom_locations group by organization_id),
     raw as (
       select org.id organization_id, g, rec.ids rids, loc.ids lids, loc.mailroom_id,
              random() s, random() a, random() b, random() c, random() d, random() e
       from org join rec on rec.organization_id = org.id join loc on loc.organization_id = org.id,
            generate_series(1, org.n) g
     ),
     st as (
       select raw.*,
              case when s < 0.05 then 'pending' when s < 0.08 then 'notified'
                   when s < 0.10 then 'returned' else 'delivered' end status,
              (array['UPS','FedEx','USPS','DHL','Amazon'])[1 + g % 5] courier,
              case when b < 0.60 then 'package' when b < 0.85 then 'letter' when b < 0.93 then 'certified_mail'
                   when b < 0.98 then 'express' else 'fragile' end type,
              md5(organization_id::text || g) h
       from raw
     ),
     t as (
       select st.*,
              case when status in ('pending', 'notified')
                   then now() - least(-ln(1 - a) * 2, 30) * interval '1 day'
                   else now() - a * a * interval '${HISTORY_SEED.days} days' end arrived_at
       from st
     )
     insert into mail_items (organization_id, recipient_id, location_id, mailroom_id, tracking_number, type, sender,
                             courier_company, collector_name, status, arrived_at, notified_at, delivered_at,
                             created_by, handed_over_by, created_at, updated_at)
     select organization_id,
            case when d < 0.95 then rids[1 + floor(d * d * array_length(rids, 1))::int] end,
            lids[1 + floor(c * array_length(lids, 1))::int],
            mailroom_id,
            case courier
              when 'UPS' then '1Z' || upper(substr(h, 1, 16))
              when 'FedEx' then translate(substr(h, 1, 12), 'abcdef', '012345')
              when 'USPS' then '9400' || translate(substr(h, 1, 18), 'abcdef', '123456')
              when 'DHL' then translate(substr(h, 3, 10), 'abcdef', '234567')
              else 'TBA' || translate(substr(h, 5, 12), 'abcdef', '345678') end,
            type,
            (array['Amazon','Apple','Zappos','Chewy','Best Buy','Target','Walmart','Etsy','Wayfair','IRS',
                   'State Farm','Bank of America','Dell Technologies, Inc.','Staples','Home Depot'])[1 + (g * 31) % 15],
            courier,
            case when status = 'delivered' and e < 0.8
                 then (array['Amara Okafor','Liam Smith','Sofia Garcia','Noah Chen','Mei Tanaka'])[1 + g % 5] end,
            status,
            arrived_at,
            case when status <> 'pending' then least(now(), arrived_at + e * interval '2 hours') end,
            case when status = 'delivered'
                 then least(now(), arrived_at + interval '2 hours' + least(-ln(1 - e) * 1.5, 20) * interval '1 day') end,
            case when organization_id = $3::uuid then $4::uuid end,
            case when organization_id = $3::uuid and status = 'delivered' then $4::uuid end,
            arrived_at,
            arrived_at
     from t`,
    [orgIds, counts, mainOrganizationId, userId],
  );
}
