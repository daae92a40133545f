/**
 * Super admin benchmark (issue 11): the console's calls on a large platform — by default 20,000
 * organizations, 100,000 users, 150,000 memberships, 1,000,000 'created' history rows (most of
 * them this month), 20,000 payments and 50,000 platform log entries — at 20 connections, first
 * on a database the planner has no statistics for (as after a restore), then after ANALYZE.
 * Prints p50, p99 and req/s per call and how PostgreSQL reads each statement. Timing never
 * fails the run; a non-2xx answer does (exit 1).
 *
 *   npm run bench:super-admin          (DATABASE_URL=... to run on another PostgreSQL)
 *
 * BENCH_ORGS / BENCH_USERS / BENCH_HISTORY shrink the data set for a quick try.
 */
import os from 'node:os';
import pg from 'pg';
import { platformLogRepository } from '../../src/server/modules/audit/platform-log.repository';
import { superAdminRepository } from '../../src/server/modules/super-admin/super-admin.repository';
import { explainStatements, type ExplainTarget } from './explain';
import {
  cookieHeader,
  log,
  makeDataDir,
  printTable,
  provisionDatabase,
  runBenchmark,
  signUp,
  startBenchServer,
  verdict,
} from './harness';
import { measureEndpoint, type LoadOptions, type LoadResult } from './load';

const SIZE = {
  organizations: Number(process.env.BENCH_ORGS ?? 20_000),
  users: Number(process.env.BENCH_USERS ?? 100_000),
  history: Number(process.env.BENCH_HISTORY ?? 1_000_000),
  payments: 20_000,
  logEntries: 50_000,
};
const LOAD: LoadOptions = { connections: 20, warmUpSeconds: 1, measureSeconds: 4 };
const BUDGET_P99_MS = 50;

const ROUTES = [
  '/api/super-admin/stats',
  '/api/super-admin/organizations',
  '/api/super-admin/organizations?offset=10000',
  '/api/super-admin/organizations?search=harbor',
  '/api/super-admin/organizations?search=zzq-rare',
  '/api/super-admin/users',
  '/api/super-admin/users?search=smith',
  '/api/super-admin/users?search=user77777%40mail7.example',
  '/api/super-admin/logs',
  '/api/super-admin/logs?kind=webhook',
  '/api/super-admin/logs?search=org-42',
];

/** Bulk SQL: the whole platform in a few statements (generate_series, no API calls). */
async function seed(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { organizations: orgs, users, history } = SIZE;
    await client.query(`
      insert into organizations (name, email_domain, plan_type, subscription_status, trial_end_date, max_users,
                                 max_packages_per_month, created_at)
      select (array['Harbor','Maple','Summit','Riverside','Oak','Bayview','Granite','Cedar'])[1 + i % 8] || ' ' ||
             (array['Lofts','Towers','Offices','Campus','Residences','Hotel','Plaza'])[1 + i % 7] || ' ' || i
               || case when i = 4242 then ' zzq-rare' else '' end,
             case when i % 3 = 0 then 'org-' || i || '.example' end,
             (case when i % 5 = 0 then 'professional' when i % 11 = 0 then 'starter' else 'trial' end)::plan_type,
             (case when i % 5 = 0 or i % 11 = 0 then 'active' else 'trial' end)::subscription_status,
             now() + ((i % 14) - 7) * interval '1 day', 5, 500,
             now() - (i % 700) * interval '1 day'
      from generate_series(1, ${orgs}) i`);
    await client.query(`
      insert into users (email, username, first_name, last_name, password, created_at)
      select 'user' || i || '@mail' || (i % 10) || '.example', 'user' || i,
             (array['Ada','Grace','Alan','Kim','Rosa','Ivan','Mei','Omar'])[1 + i % 8],
             (array['Smith','Lovelace','Hopper','Turing','Okafor','Ivanova','Chen','Haddad'])[1 + (i / 8) % 8],
             'not-a-hash', now() - (i % 700) * interval '1 day'
      from generate_series(1, ${users}) i`);
    await client.query(`
      with o as (select id, row_number() over (order by created_at, id) as n from organizations),
           u as (select id, row_number() over (order by created_at, id) as n from users where username like 'user%')
      insert into organization_members (organization_id, user_id, role)
      select o.id, u.id, (case when u.n <= ${orgs} then 'admin' else 'member' end)::member_role
      from u join o on o.n = 1 + (u.n - 1) % ${orgs}
      union all
      select o.id, u.id, 'member'::member_role
      from u join o on o.n = 1 + (u.n * 7) % ${orgs}
      where u.n % 2 = 0 and 1 + (u.n * 7) % ${orgs} <> 1 + (u.n - 1) % ${orgs}
      on conflict do nothing`);
    await client.query(`
      with o as (select id, row_number() over (order by id) as n from organizations)
      insert into mail_item_history (organization_id, mail_item_id, action, new_status, created_at)
      select o.id, gen_random_uuid(), 'created', 'pending',
             case when i % 5 = 0 then now() - interval '40 days' - (i % 300) * interval '1 day'
                  else date_trunc('month', now()) + (i % 20) * interval '1 hour' end
      from generate_series(1, ${history}) i join o on o.n = 1 + i % ${orgs}`);
    await client.query(`
      with o as (select id, row_number() over (order by id) as n from organizations)
      insert into billing_payments (organization_id, provider, provider_ref, status, amount, currency, description)
      select o.id, 'demo', 'bench-' || i, case when i % 10 = 0 then 'failed' else 'paid' end, 3500 * (1 + i % 9), 'USD',
             'Bench payment'
      from generate_series(1, ${SIZE.payments}) i join o on o.n = 1 + i % ${orgs}`);
    await client.query(`
      insert into platform_log (kind, action, actor_email, target_type, target_label, before, after, details, created_at)
      select k.kind, k.action, case when k.kind = 'super_admin' then 'ops@bench.test' end, k.target,
             case when k.kind = 'webhook' then 'stripe' else 'org-' || i end,
             case when k.kind = 'super_admin' then '{"planType":"trial"}'::jsonb end,
             case when k.kind = 'super_admin' then '{"planType":"professional"}'::jsonb end,
             case when k.kind = 'webhook' then '{"code":"invalid_signature"}'::jsonb end,
             now() - i * interval '1 minute'
      from generate_series(1, ${SIZE.logEntries}) i
      cross join lateral (select (array['super_admin','sign_in','webhook'])[1 + i % 3] as kind) kk
      cross join lateral (select kk.kind,
        case kk.kind when 'super_admin' then 'organization.updated' when 'sign_in' then 'sign_in.repeated_failures'
                     else 'webhook.stripe_failed' end as action,
        case kk.kind when 'super_admin' then 'organization' when 'sign_in' then 'login' else 'provider' end as target) k`);
  } finally {
    await client.end();
  }
}

async function analyze(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

const explainTargets: ExplainTarget[] = [
  { name: 'stats', run: (db) => superAdminRepository.stats(db) },
  { name: 'organizations page 1', run: (db) => superAdminRepository.listOrganizations(db, undefined, 25, 0) },
  { name: 'organizations count', run: (db) => superAdminRepository.countOrganizations(db, undefined) },
  { name: 'organizations ?search=harbor', run: (db) => superAdminRepository.listOrganizations(db, 'harbor', 25, 0) },
  { name: 'organizations count harbor', run: (db) => superAdminRepository.countOrganizations(db, 'harbor') },
  { name: 'users page 1', run: (db) => superAdminRepository.listUsers(db, undefined, 25, 0) },
  { name: 'users ?search=smith', run: (db) => superAdminRepository.listUsers(db, 'smith', 25, 0) },
  { name: 'users count smith', run: (db) => superAdminRepository.countUsers(db, 'smith') },
  { name: 'logs page 1', run: (db) => platformLogRepository.list(db, {}, 25, 0) },
  { name: 'logs ?search=org-42', run: (db) => platformLogRepository.list(db, { search: 'org-42' }, 25, 0) },
];

/** The first plan line of each table read: how PostgreSQL reached the rows. */
function accessSummary(plan: string): string {
  const reads = plan
    .split('\n')
    .map((l) =>
      /(Seq Scan|Index Only Scan|Index Scan(?: Backward)?|Bitmap Index Scan)(?: using (\S+))?(?: on (\S+))?/.exec(l),
    )
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]}${m[2] ? ` ${m[2]}` : ''}${m[3] ? ` on ${m[3]}` : ''}`);
  return [...new Set(reads)].slice(0, 3).join('; ');
}

async function measureAll(baseUrl: string, cookie: string, phase: string) {
  const results: LoadResult[] = [];
  for (const path of ROUTES) {
    log(`load (${phase}): GET ${path} ...`);
    results.push(await measureEndpoint(baseUrl, { name: `GET ${path}`, path, headers: { cookie } }, {}, LOAD));
  }
  return results;
}

function printLoad(title: string, results: LoadResult[]) {
  console.log(
    `\n${title} (${LOAD.connections} connections, ${LOAD.measureSeconds} s after a ${LOAD.warmUpSeconds} s warm-up)`,
  );
  printTable(
    ['call', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'budget'],
    results.map((r) => [
      r.name,
      r.requestsPerSecond.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      String(r.non2xx + r.errors),
      verdict(r.p99, BUDGET_P99_MS, `p99 < ${BUDGET_P99_MS} ms`),
    ]),
  );
  return results.some((r) => r.non2xx > 0 || r.errors > 0);
}

async function main(): Promise<number> {
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  const server = await startBenchServer(dataDir, database);
  const account = await signUp(server.url);
  const flag = new pg.Client({ connectionString: database.url });
  await flag.connect();
  await flag.query('update users set is_super_admin = true where id = $1', [account.userId]);
  await flag.end();
  const cookie = cookieHeader(account.sessionToken);

  log(
    `seeding ${SIZE.organizations} organizations, ${SIZE.users} users, ${SIZE.history} history rows on ${database.label} ...`,
  );
  const started = performance.now();
  await seed(database.url);
  log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const before = await measureAll(server.url, cookie, 'no statistics');
  log('ANALYZE ...');
  await analyze(database.url);
  const plans = await explainStatements(database.url, explainTargets);
  const after = await measureAll(server.url, cookie, 'analysed');

  console.log(
    `\nSuper admin console on ${SIZE.organizations.toLocaleString()} organizations, ${SIZE.users.toLocaleString()} users, ` +
      `${SIZE.history.toLocaleString()} history rows (${database.label}); ${os.cpus().length} CPUs shared by server, ` +
      'PostgreSQL and the load generator',
  );
  console.log('\nStatements after ANALYZE (EXPLAIN ANALYZE, median of 5)');
  printTable(
    ['statement', 'exec ms', 'plan ms', 'reads'],
    plans.map((p) => [p.name, p.executionMs.toFixed(2), p.planningMs.toFixed(2), accessSummary(p.plan)]),
  );
  const failedBefore = printLoad('HTTP load before ANALYZE (no planner statistics)', before);
  const failedAfter = printLoad('HTTP load after ANALYZE', after);
  return failedBefore || failedAfter ? 1 : 0;
}

runBenchmark(main, 900_000);
