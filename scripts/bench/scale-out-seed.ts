/**
 * The scale-out benchmark's data (issue 27, item 6): a database of its own on a PostgreSQL server
 * (by default `pigeonhole_scaleout` on the machine's PostgreSQL 15), seeded once and reused by
 * later runs while its figures match the ones asked for. Seeding is front-desk-seed's bulk SQL
 * (`insert ... select` over generate_series) with a layout of 1,000 organizations: a million items
 * take minutes, through the API they would take hours.
 *
 * The bench user is inserted directly (argon2 hash as the app writes it) and made a member of
 * MEMBER_ORGANIZATIONS organizations spread over the size range; its sessions are inserted as the
 * sign-in writes them (SHA-256 of the cookie token), fresh on every run.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { connectDatabase } from '../../src/server/db/client';
import { runMigrations } from '../../src/server/db/migrate';
import { hashPassword } from '../../src/server/lib/passwords';
import { hashToken, newToken } from '../../src/server/lib/tokens';
import { seedFrontDesk, type FrontDeskLayout } from './front-desk-seed';
import { log, rootDir } from './harness';

export const BENCH_EMAIL = 'scaleout@bench.test';
export const BENCH_PASSWORD = 'scaleout-bench-password-1';

/** What a run asks for; a database seeded with other figures is reseeded. */
export type ScaleOutSize = { items: number; organizations: number; memberOrganizations: number };

/** Kept as the database's COMMENT, so a later run knows what it holds without a table of the bench's own. */
type Stamp = ScaleOutSize & { userId: string; secretsKey: string; seededAt: string };

/** One organization the bench user works in, with what the requests need of it. */
export type DeskOrganization = {
  id: string;
  items: number;
  recipientIds: string[];
  /** Strings the recipient search is asked for: first names and parts of last names found there. */
  searches: string[];
  locationIds: string[];
  /** Items waiting for pickup that the status changes flip between pending and notified. */
  statusPool: string[];
};

export type ScaleOutData = {
  databaseUrl: string;
  userId: string;
  secretsKey: string;
  organizations: DeskOrganization[];
  counts: { items: number; organizations: number };
  seededNow: boolean;
  seedSeconds: number;
  /** When the seed finished: rows written since are the bench's own (removeBenchWrites). */
  seededAt: Date;
};

/** Items of the biggest organization (the user's "home"), as front-desk-seed's main one. */
const MAIN_ITEMS_SHARE = 0.02;
const STATUS_POOL_PER_ORG = 200;

/**
 * The database `name` on the server of `adminUrl`, seeded with `size` unless it already holds it
 * (its comment says so and the counts agree); `reseed` drops it first.
 */
export async function ensureScaleOutData(
  adminUrl: string,
  name: string,
  size: ScaleOutSize,
  reseed: boolean,
): Promise<ScaleOutData> {
  const databaseUrl = withDatabase(adminUrl, name);
  const started = performance.now();
  let stamp = reseed ? undefined : await readStamp(adminUrl, name, size);
  const seededNow = !stamp;
  if (!stamp) {
    await withClient(adminUrl, async (c) => {
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.query(`create database "${name}"`);
    });
    log(`database ${name} created; migrating ...`);
    const migrator = connectDatabase(databaseUrl, 1);
    try {
      await runMigrations(migrator.db, rootDir);
    } finally {
      await migrator.close();
    }
    stamp = await seed(databaseUrl, size);
    await withClient(adminUrl, (c) => c.query(`comment on database "${name}" is '${JSON.stringify(stamp)}'`));
  } else {
    log(`database ${name} already holds ${size.items} items in ${size.organizations} organizations: reused`);
    const removed = await withClient(databaseUrl, (c) => removeBenchWrites(c, new Date(stamp!.seededAt)));
    if (removed > 0) log(`removed ${removed} items that earlier runs logged`);
  }
  const organizations = await deskOrganizations(databaseUrl, stamp.userId);
  const counts = await withClient(databaseUrl, async (c) => {
    const { rows } = await c.query<{ items: number; organizations: number }>(
      `select (select count(*) from mail_items)::int items, (select count(*) from organizations)::int organizations`,
    );
    return rows[0]!;
  });
  return {
    databaseUrl,
    userId: stamp.userId,
    secretsKey: stamp.secretsKey,
    organizations,
    counts,
    seededNow,
    seedSeconds: (performance.now() - started) / 1000,
    seededAt: new Date(stamp.seededAt),
  };
}

/**
 * Puts the data back as seeded: removes the items the load logged since `seededAt`, the history
 * rows and notification jobs the load wrote (the counters and arrivals follow by trigger). Every
 * window logs about 400 items into the bench user's 50 organizations; left in place, a run grew
 * their median from about 1,000 items to 1,500, and each window read more than the one before it,
 * a drift that fell on whichever configuration came later. Run before each round and at start.
 * Answers how many items it removed.
 */
export async function removeBenchWrites(client: pg.Client, seededAt: Date): Promise<number> {
  // One statement, so all three go or none does.
  const { rows } = await client.query<{ n: number }>(
    `with items as (delete from mail_items where created_at >= $1 returning 1),
          history as (delete from mail_item_history where created_at >= $1),
          jobs as (delete from notification_jobs where created_at >= $1)
     select count(*)::int n from items`,
    [seededAt],
  );
  return rows[0]!.n;
}

async function readStamp(adminUrl: string, name: string, size: ScaleOutSize): Promise<Stamp | undefined> {
  const comment = await withClient(adminUrl, async (c) => {
    const { rows } = await c.query<{ comment: string | null }>(
      `select shobj_description(oid, 'pg_database') comment from pg_database where datname = $1`,
      [name],
    );
    return rows[0]?.comment;
  });
  if (!comment) return undefined;
  let stamp: Stamp;
  try {
    stamp = JSON.parse(comment) as Stamp;
  } catch {
    return undefined;
  }
  if (
    stamp.items !== size.items ||
    stamp.organizations !== size.organizations ||
    stamp.memberOrganizations !== size.memberOrganizations
  )
    return undefined;
  // The comment is written last; the counts catch a database changed by hand since.
  const counts = await withClient(withDatabase(adminUrl, name), async (c) => {
    const { rows } = await c.query<{ orgs: number; members: number }>(
      `select (select count(*) from organizations)::int orgs,
              (select count(*) from organization_members where user_id = $1)::int members`,
      [stamp.userId],
    );
    return rows[0]!;
  });
  if (counts.orgs !== size.organizations || counts.members !== size.memberOrganizations) return undefined;
  return stamp;
}

async function seed(databaseUrl: string, size: ScaleOutSize): Promise<Stamp> {
  const seedStarted = performance.now();
  const { userId, mainOrganizationId } = await withClient(databaseUrl, async (c) => {
    const password = await hashPassword(BENCH_PASSWORD);
    const user = await c.query<{ id: string }>(
      `insert into users (email, username, first_name, last_name, password, email_verified_at)
       values ($1, 'scaleout', 'Scale', 'Out', $2, now()) returning id`,
      [BENCH_EMAIL, password],
    );
    const org = await c.query<{ id: string }>(
      `insert into organizations (name, subscription_status, plan_type, max_packages_per_month)
       values ('Scale-out HQ', 'active', 'professional', -1) returning id`,
    );
    return { userId: user.rows[0]!.id, mainOrganizationId: org.rows[0]!.id };
  });
  const layout: FrontDeskLayout = {
    organizations: size.organizations,
    totalItems: size.items,
    main: { items: Math.round(size.items * MAIN_ITEMS_SHARE), recipients: 500, locations: 10 },
    other: { recipients: 50, locations: 3 },
  };
  log(`seeding ${size.items} items in ${size.organizations} organizations (bulk SQL) ...`);
  const seeded = await seedFrontDesk(databaseUrl, mainOrganizationId, userId, { layout, analyze: false });
  // The other organizations the user is a member of, spread evenly over them (their sizes run
  // from 0.4 to 1.6 times the mean in creation order: unevenSplit).
  const others = seeded.otherOrganizationIds;
  const step = others.length / Math.max(1, size.memberOrganizations - 1);
  const picked = Array.from({ length: size.memberOrganizations - 1 }, (_, i) => others[Math.floor(i * step)]!);
  await withClient(databaseUrl, async (c) => {
    await c.query(
      `insert into organization_members (organization_id, user_id, role)
       select id, $2, 'admin' from unnest($1::uuid[]) id`,
      [[mainOrganizationId, ...picked], userId],
    );
    log('vacuum analyze ...');
    await c.query('vacuum analyze');
  });
  log(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
  return {
    ...size,
    userId,
    secretsKey: crypto.randomBytes(32).toString('base64'),
    seededAt: new Date().toISOString(),
  };
}

/** The user's organizations with the ids and words the load's requests are made of. */
async function deskOrganizations(databaseUrl: string, userId: string): Promise<DeskOrganization[]> {
  return withClient(databaseUrl, async (c) => {
    const { rows } = await c.query<{
      id: string;
      items: number;
      recipient_ids: string[];
      searches: string[];
      location_ids: string[];
      status_pool: string[] | null;
    }>(
      `select m.organization_id id,
              (select coalesce(sum(n), 0)::int from mail_item_counts k where k.organization_id = m.organization_id) items,
              (select array_agg(id order by id) from (select id from recipients r
                 where r.organization_id = m.organization_id and r.is_active order by id limit 50) r) recipient_ids,
              (select array_agg(distinct s) from ((select first_name s from recipients r
                 where r.organization_id = m.organization_id and r.is_active limit 20)
                 union all (select left(last_name, 3) from recipients r
                 where r.organization_id = m.organization_id and r.is_active limit 20)) r) searches,
              (select array_agg(id order by name) from mailroom_locations l where l.organization_id = m.organization_id) location_ids,
              (select array_agg(id order by id) from (select id from mail_items i
                 where i.organization_id = m.organization_id and i.status in ('pending', 'notified')
                 order by id limit ${STATUS_POOL_PER_ORG}) i) status_pool
       from organization_members m where m.user_id = $1 order by m.organization_id`,
      [userId],
    );
    return rows.map((r) => ({
      id: r.id,
      items: r.items,
      recipientIds: r.recipient_ids,
      searches: r.searches,
      locationIds: r.location_ids,
      statusPool: r.status_pool ?? [],
    }));
  });
}

/** `count` fresh sessions of the user, written as the sign-in writes them; answers the cookie tokens. */
export async function createSessions(databaseUrl: string, userId: string, count: number): Promise<string[]> {
  const tokens = Array.from({ length: count }, () => newToken());
  await withClient(databaseUrl, (c) =>
    c.query(
      `insert into sessions (sid, user_id, expire, sess)
       select sid, $2::uuid, now() + interval '1 day', jsonb_build_object('userId', $3::text, 'createdAt', now())
       from unnest($1::text[]) sid`,
      [tokens.map(hashToken), userId, userId],
    ),
  );
  return tokens;
}

/** The current status of each item of the organizations' status pools, by item id. */
export async function poolStatuses(databaseUrl: string, organizations: DeskOrganization[]) {
  const ids = organizations.flatMap((o) => o.statusPool);
  return withClient(databaseUrl, async (c) => {
    const { rows } = await c.query<{ id: string; status: string }>(
      `select id, status from mail_items where id = any($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.status]));
  });
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function withClient<T>(connectionString: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
