/**
 * Who a link asked for on the recipient's page goes to (issue 41, item 9; decision 051): the
 * lookup of every active recipient, in every organization, with an email (any case) or a phone
 * number (its digits), at RECIPIENTS recipients over ORGANIZATIONS organizations, as the
 * application's role under row-level security, after ANALYZE.
 *
 * - "before": the statement issue 41's probe met, compared with lower(email) and
 *   regexp_replace(phone, '\D', '', 'g') on every row (no index can serve it: see decision 051);
 * - "after": portalRepository.recipientsByAddress, by the stored normalised columns and their
 *   indexes (migration 0033).
 *
 * Each LOOKUPS times one after the other (p50, p99), then 20 at once (the probe's 20 requests
 * from 20 addresses) on a pool of 20: the wall time of the 20. "Before" runs on the table without
 * migration 0033's columns; then the migration's statements are run again on the full table, timed
 * (what adding the stored columns costs: a rewrite under an exclusive lock).
 *
 *   npx tsx scripts/bench/portal-link-lookup.ts     (DATABASE_URL=… for a PostgreSQL of your own)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { connectDatabase, type Database as AppDatabase } from '../../src/server/db/client';
import { runMigrations } from '../../src/server/db/migrate';
import { appRoleFor } from '../../src/server/db/row-level-security';
import { organizations, recipients } from '../../src/server/db/schema';
import { portalRepository } from '../../src/server/modules/portal/portal.repository';
import { log, makeDataDir, printTable, provisionDatabase, runBenchmark } from './harness';

const RECIPIENTS = Number(process.env.RECIPIENTS ?? 200_000);
const ORGANIZATIONS = Number(process.env.ORGANIZATIONS ?? 200);
const LOOKUPS = Number(process.env.LOOKUPS ?? 50);
const PARALLEL = 20;

/** The lookup as it was before migration 0033 (portal.repository.ts at issue 41's probe). */
function lookupBefore(db: AppDatabase['db'], address: string) {
  const isEmail = address.includes('@');
  const digits = address.replace(/\D/g, '');
  return db
    .select({
      id: recipients.id,
      organizationId: recipients.organizationId,
      firstName: recipients.firstName,
      email: recipients.email,
      phone: recipients.phone,
      organizationName: organizations.name,
    })
    .from(recipients)
    .innerJoin(organizations, eq(organizations.id, recipients.organizationId))
    .where(
      and(
        eq(recipients.isActive, true),
        isEmail
          ? sql`lower(${recipients.email}) = ${address.toLowerCase()}`
          : sql`regexp_replace(${recipients.phone}, '\\D', '', 'g') = ${digits}`,
      ),
    )
    .limit(20);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timed(run: (address: string) => Promise<unknown[]>, addresses: string[]) {
  const times: number[] = [];
  let found = 0;
  for (const address of addresses) {
    const started = performance.now();
    found += (await run(address)).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const started = performance.now();
  await Promise.all(addresses.slice(0, PARALLEL).map((a) => run(a)));
  return { p50: percentile(times, 50), p99: percentile(times, 99), parallel: performance.now() - started, found };
}

async function main(): Promise<number> {
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  const owner = connectDatabase(database.url, 2);
  await runMigrations(owner.db, process.cwd());
  await owner.close();
  log(`seeding ${RECIPIENTS} recipients over ${ORGANIZATIONS} organizations ...`);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const perOrganization = Math.ceil(RECIPIENTS / ORGANIZATIONS);
  await client.query(`
    insert into organizations (name) select 'Building ' || g from generate_series(1, ${ORGANIZATIONS}) g;
    insert into recipients (organization_id, first_name, last_name, email, phone)
    select o.id, 'First', 'Last ' || g, 'person.' || o.n || '.' || g || '@example.com',
           '+1 (555) ' || lpad((o.n * ${perOrganization} + g)::text, 7, '0')
    from (select id, row_number() over () n from organizations) o, generate_series(1, ${perOrganization}) g;
    analyze organizations;
    alter table recipients drop column email_normalized, drop column phone_digits;
    analyze recipients;`);
  const app = connectDatabase(database.url, PARALLEL, { role: await appRoleFor(database.url) });
  const n = (i: number) => 1 + ((i * 7919) % ORGANIZATIONS);
  const emails = Array.from({ length: LOOKUPS }, (_, i) => `Person.${n(i)}.${1 + i}@Example.com`);
  const phones = Array.from(
    { length: LOOKUPS },
    (_, i) => `1-555-${String(n(i) * perOrganization + 1 + i).padStart(7, '0')}`,
  );
  const rows: string[][] = [];
  let missing = 0;
  const measure = async (version: string, run: (a: string) => Promise<unknown[]>) => {
    for (const [label, addresses] of [
      ['email', emails],
      ['phone', phones],
    ] as const) {
      await run(addresses[0]!); // warm
      log(`${label}, ${version} ...`);
      const r = await timed(run, addresses);
      if (r.found !== addresses.length) missing += 1;
      rows.push([label, version, r.p50.toFixed(2), r.p99.toFixed(2), r.parallel.toFixed(0), String(r.found)]);
    }
  };
  await measure('before (expressions on every row)', (a) => lookupBefore(app.db, a));
  log('migration 0033 on the full table ...');
  const migration = fs
    .readFileSync(path.join(process.cwd(), 'migrations/0033_recipients_by_address.sql'), 'utf8')
    .split('--> statement-breakpoint');
  const started = performance.now();
  for (const statement of migration) await client.query(statement);
  const migrationMs = performance.now() - started;
  await client.query('analyze recipients');
  await client.end();
  await measure('after (normalised columns, indexed)', (a) => portalRepository.recipientsByAddress(app.db, a));
  await app.close();
  console.log(
    `\nA requested link's lookup at ${RECIPIENTS} recipients over ${ORGANIZATIONS} organizations, as the app's role ` +
      `(row-level security), ${LOOKUPS} lookups, ${os.cpus().length} CPUs shared with PostgreSQL (${database.label}).`,
  );
  printTable(['address', 'lookup', 'p50 ms', 'p99 ms', `${PARALLEL} at once, ms`, 'found'], rows);
  console.log(
    `\nMigration 0033 (two stored columns, two indexes) on ${RECIPIENTS} recipients: ${migrationMs.toFixed(0)} ms.`,
  );
  return missing ? 1 : 0;
}

runBenchmark(main, 600_000);
