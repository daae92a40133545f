import pg from 'pg';

/**
 * Front-desk data for the benchmark, written straight through SQL (`insert ... select` over
 * generate_series; the API would take many minutes for 100,000 items): 100 organizations, the
 * signed-in user's holding 20,000 items, the 99 others 80,000 between them, unevenly.
 *
 * Per organization: recipients (500 in the big one, 50 elsewhere), one mailroom with storage
 * locations (10 in the big one, 3 elsewhere), items spread over 180 days, each on a location and
 * most with a recipient, and one `created` history row per item. Status mix by a random draw:
 * 8 % pending, 4 % notified, 3 % returned, 85 % delivered. Items still waiting arrived recently
 * (exponential, mean 2 days: about a fifth are past the 72-hour overdue mark); handed-over items
 * arrived any time in the 180 days.
 */

export const FRONT_DESK = {
  organizations: 100,
  totalItems: 100_000,
  main: { items: 20_000, recipients: 500, locations: 10 },
  other: { recipients: 50, locations: 3 },
  days: 180,
} as const;

/** How many organizations and items, and how many of them the signed-in one holds. */
export type FrontDeskLayout = {
  organizations: number;
  totalItems: number;
  main: { items: number; recipients: number; locations: number };
  other: { recipients: number; locations: number };
};

/**
 * `analyze: false` leaves the tables as a bulk load or a restored backup leaves them: no
 * statistics, no visibility map (the plans must hold before ANALYZE).
 */
export type SeedOptions = { layout?: FrontDeskLayout; analyze?: boolean };

export type FrontDeskSeed = {
  /** The big organization's recipients and locations, for the request bodies. */
  recipientIds: string[];
  locationIds: string[];
  otherOrganizationIds: string[];
  counts: { items: number; history: number; pendingInMain: number; notifiedInMain: number };
};

export async function seedFrontDesk(
  databaseUrl: string,
  mainOrganizationId: string,
  userId: string,
  { layout = FRONT_DESK, analyze = true }: SeedOptions = {},
) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // random() below is then the same from run to run.
    await client.query('select setseed(0.42)');
    const others = await insertOrganizations(client, layout.organizations - 1);
    const orgIds = [mainOrganizationId, ...others];
    const otherItems = layout.totalItems - layout.main.items;
    const itemCounts = [layout.main.items, ...(others.length ? unevenSplit(otherItems, others.length) : [])];

    await insertRecipients(client, orgIds, [layout.main.recipients, ...others.map(() => layout.other.recipients)]);
    await insertStorage(client, orgIds, [layout.main.locations, ...others.map(() => layout.other.locations)]);
    await insertMailItems(client, orgIds, itemCounts, mainOrganizationId, userId);
    const history = await client.query(
      `insert into mail_item_history (organization_id, mail_item_id, action, new_status, performed_by, created_at)
       select organization_id, id, 'created', 'pending', created_by, arrived_at from mail_items`,
    );
    // A desk with 50 clerks at once is on a paying plan with unlimited packages (Professional):
    // the trial's 500-package cap would refuse the run half-way. Capped plans take the serialised
    // path (one intake at a time per organization), which is measured separately.
    await client.query(
      `update organizations set plan_type = 'professional', subscription_status = 'active',
         max_packages_per_month = -1, max_users = 100 where id = $1`,
      [mainOrganizationId],
    );
    // Fresh bulk rows have no statistics yet, so the planner would guess. VACUUM as well: it sets the
    // visibility map that index-only scans need, as autovacuum would in steady state.
    if (analyze) await client.query('vacuum analyze');

    const [main] = (
      await client.query<{ items: number; pending: number; notified: number }>(
        `select count(*)::int items, (count(*) filter (where status = 'pending'))::int pending,
                (count(*) filter (where status = 'notified'))::int notified
         from mail_items where organization_id = $1`,
        [mainOrganizationId],
      )
    ).rows;
    const total = (await client.query<{ n: number }>(`select count(*)::int n from mail_items`)).rows[0]!.n;
    const recipientIds = (
      await client.query<{ id: string }>(`select id from recipients where organization_id = $1 order by id`, [
        mainOrganizationId,
      ])
    ).rows.map((r) => r.id);
    const locationIds = (
      await client.query<{ id: string }>(`select id from mailroom_locations where organization_id = $1 order by name`, [
        mainOrganizationId,
      ])
    ).rows.map((r) => r.id);
    return {
      recipientIds,
      locationIds,
      otherOrganizationIds: others,
      counts: {
        items: total,
        history: history.rowCount ?? 0,
        pendingInMain: main!.pending,
        notifiedInMain: main!.notified,
      },
    } satisfies FrontDeskSeed;
  } finally {
    await client.end();
  }
}

/** `total` over `parts` organizations, from about 0.4x to 1.6x the mean, summing to `total` exactly. */
export function unevenSplit(total: number, parts: number): number[] {
  const weights = Array.from({ length: parts }, (_, i) => 0.4 + (1.2 * i) / Math.max(1, parts - 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((total * w) / sum));
  counts[counts.length - 1]! += total - counts.reduce((a, b) => a + b, 0);
  return counts;
}

export async function insertOrganizations(client: pg.Client, count: number): Promise<string[]> {
  const result = await client.query<{ id: string }>(
    `insert into organizations (name, subscription_status, plan_type, max_packages_per_month)
     select 'Bench neighbour ' || g, 'active'::subscription_status, 'professional'::plan_type, -1 from generate_series(1, $1::int) g
     returning id`,
    [count],
  );
  return result.rows.map((r) => r.id);
}

/** One in ten inactive; a third each guests, employees (with a department) and residents (with a unit). */
export async function insertRecipients(client: pg.Client, orgIds: string[], counts: number[]) {
  await client.query(
    `with names as (
       select array['Amara','Liam','Sofia','Noah','Mei','Lucas','Aisha','Mateo','Hannah','Yusuf','Olivia','Kenji',
                    'Chloe','Diego','Priya','Ethan','Zoe','Omar','Elena','Jonas'] f,
              array['Okafor','Smith','Garcia','Chen','Müller','Rossi','Nguyen','Kowalski','Haddad','Johnson','Silva',
                    'Tanaka','Dubois','Novak','Patel','Andersen','Murphy','Costa','Schmidt','Ali','Brown','Lopez',
                    'Kim','Ivanova','Cohen'] l
     )
     insert into recipients (organization_id, first_name, last_name, email, phone, unit, department,
                             recipient_type, is_active)
     select o.id, names.f[1 + g % 20], names.l[1 + (g * 7) % 25],
            lower(names.f[1 + g % 20] || '.' || names.l[1 + (g * 7) % 25]) || g || '@example.com',
            '+1 555 01' || lpad((g % 100)::text, 2, '0'),
            case when g % 3 = 2 then 'Apt ' || (100 + g % 400) end,
            case when g % 3 = 1 then (array['Engineering','Sales','Finance','Legal','Facilities'])[1 + g % 5] end,
            (array['guest', 'employee', 'resident'])[1 + g % 3]::recipient_type, g % 10 <> 0
     from unnest($1::uuid[], $2::int[]) o(id, n), names, generate_series(1, o.n) g`,
    [orgIds, counts],
  );
}

/** One mailroom per organization and its shelves; capacity well above what they hold. */
export async function insertStorage(client: pg.Client, orgIds: string[], locationCounts: number[]) {
  await client.query(
    `with m as (
       insert into mailrooms (organization_id, name, description)
       select id, 'Main Mailroom', 'Ground floor, behind reception' from unnest($1::uuid[]) id
       returning id, organization_id
     )
     insert into mailroom_locations (organization_id, mailroom_id, name, type, capacity)
     select m.organization_id, m.id, 'Shelf ' || chr(64 + g), 'shelf'::location_type, 400
     from m join unnest($1::uuid[], $2::int[]) o(id, n) on o.id = m.organization_id, generate_series(1, o.n) g`,
    [orgIds, locationCounts],
  );
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
              case when s < 0.08 then 'pending' when s < 0.12 then 'notified'
                   when s < 0.15 then 'returned' else 'delivered' end status,
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
                   else now() - a * interval '${FRONT_DESK.days} days' end arrived_at
       from st
     )
     insert into mail_items (organization_id, recipient_id, location_id, mailroom_id, tracking_number, type, sender,
                             sender_address, courier_company, collector_name, description, size, weight, status,
                             arrived_at, notified_at, delivered_at, notes, created_by, handed_over_by,
                             created_at, updated_at)
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
                   'State Farm','Bank of America','Dell Technologies','Staples','Home Depot'])[1 + (g * 31) % 15],
            case when e < 0.3 then (1 + g % 9000) || ' Market Street, Suite ' || (g % 900) || ', San Francisco, CA 94105' end,
            courier,
            case when status = 'delivered' and e < 0.8
                 then (array['Amara Okafor','Liam Smith','Sofia Garcia','Noah Chen','Mei Tanaka'])[1 + g % 5] end,
            case when e < 0.2 then (array['Brown box, taped', 'Padded envelope', 'Tube, posters',
                                          'Two boxes strapped together', 'Soft pack, clothing'])[1 + g % 5] end,
            case when type in ('package', 'express', 'fragile') then (array['small','medium','large','extra_large'])[1 + g % 4] end,
            case when type in ('package', 'express', 'fragile') and e < 0.5 then round((0.2 + e * 10)::numeric, 1) || ' kg' end,
            status,
            arrived_at,
            case when status <> 'pending' then least(now(), arrived_at + e * interval '2 hours') end,
            case when status = 'delivered'
                 then least(now(), arrived_at + interval '2 hours' + least(-ln(1 - e) * 1.5, 20) * interval '1 day') end,
            case when e > 0.95 then 'Left at the desk by the courier' end,
            case when organization_id = $3::uuid then $4::uuid end,
            case when organization_id = $3::uuid and status = 'delivered' then $4::uuid end,
            arrived_at,
            case when status = 'delivered'
                 then least(now(), arrived_at + interval '2 hours' + least(-ln(1 - e) * 1.5, 20) * interval '1 day')
                 when status <> 'pending' then least(now(), arrived_at + e * interval '2 hours')
                 else arrived_at end
     from t`,
    [orgIds, counts, mainOrganizationId, userId],
  );
}
