import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * Row-level security: the second wall behind the repositories' `organization_id` filters.
 *
 * Every table with an `organization_id` column (and `organizations` itself, by `id`) gets the
 * policy below, forced so that the table's owner is held by it too. The policy reads the
 * transaction-local `pigeonhole.organization_ids` (tenant-scope.ts): set, only those
 * organizations' rows can be read or written; unset, platform code sees every row. It is applied
 * after the migrations on every start, from the catalogue, so a tenant table added later cannot
 * be forgotten (row-level-security.test.ts checks every such table).
 *
 * The application acts as `pigeonhole_app`, a role without BYPASSRLS: a superuser (the embedded
 * database's, or the machine's in tests) bypasses every policy, forced or not.
 */
const APP_ROLE = 'pigeonhole_app';
const POLICY = 'tenant_wall';

/** Evaluated once per statement (an InitPlan), not per row. */
const SCOPE = `(select pigeonhole_tenants())`;
const visible = (column: string) => `(${SCOPE} is null or ${column} = any(${SCOPE}::uuid[]))`;

export async function applyRowLevelSecurity(tx: DbOrTx): Promise<void> {
  await tx.execute(
    sql.raw(`
    create or replace function pigeonhole_tenants() returns uuid[] language sql stable parallel safe as
      $$ select string_to_array(nullif(current_setting('pigeonhole.organization_ids', true), ''), ',')::uuid[] $$`),
  );
  const { rows: tables } = await tx.execute<{
    table_name: string;
    column_name: string;
    secured: boolean;
    has_policy: boolean;
  }>(sql`
    select c.relname as table_name, t.column_name,
           c.relrowsecurity and c.relforcerowsecurity as secured,
           exists (select 1 from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname and p.policyname = ${POLICY}) as has_policy
    from (select table_name::text, column_name::text from information_schema.columns
          where table_schema = 'public' and column_name = 'organization_id'
          union all select 'organizations', 'id') t
    join pg_class c on c.relname = t.table_name and c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
    order by 1`);
  for (const t of tables) {
    const table = pg.escapeIdentifier(t.table_name);
    // Only what is missing: altering a table takes a lock every running instance would wait on.
    if (!t.secured)
      await tx.execute(sql.raw(`alter table ${table} enable row level security, force row level security`));
    if (!t.has_policy) {
      const rule = visible(pg.escapeIdentifier(t.column_name));
      await tx.execute(sql.raw(`create policy ${POLICY} on ${table} using ${rule} with check ${rule}`));
    }
  }
  await ensureAppRole(tx);
  await markSearchFunctionsLeakproof(tx);
}

/**
 * Under a policy, PostgreSQL applies a condition through an index only if its functions are
 * LEAKPROOF (they cannot reveal a row through an error), and the text functions of the
 * recipients' search are not marked so: `lower(name || ...) like '%term%'` would scan the whole
 * organization instead of using the trigram index. lower and || fail only when out of memory, and
 * LIKE's errors depend on the pattern alone (ours, escaped), never on the row: leakproof in fact.
 * Only a superuser may mark them; elsewhere the search still answers, by the organization index.
 */
async function markSearchFunctionsLeakproof(tx: DbOrTx) {
  await tx.execute(
    sql.raw(`
    do $$ begin
      if (select rolsuper from pg_roles where rolname = current_user)
         and exists (select 1 from pg_proc where oid in ('lower(text)'::regprocedure, 'textcat(text, text)'::regprocedure,
                       'textlike(text, text)'::regprocedure, 'texticlike(text, text)'::regprocedure) and not proleakproof) then
        alter function lower(text) leakproof;
        alter function textcat(text, text) leakproof;
        alter function textlike(text, text) leakproof;
        alter function texticlike(text, text) leakproof;
      end if;
    end $$`),
  );
}

/**
 * `pigeonhole_app` with the rights the application needs on every table and sequence. A
 * migrating user that may not create roles (a managed database where the application connects
 * as an ordinary user) skips this: such a user does not bypass the forced policies anyway.
 */
async function ensureAppRole(tx: DbOrTx) {
  await tx.execute(
    sql.raw(`
    do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then
        begin
          create role ${APP_ROLE} nologin nosuperuser nobypassrls;
        exception when insufficient_privilege or duplicate_object then null;
        end;
      end if;
      if exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then
        begin
          if not pg_has_role(current_user, '${APP_ROLE}', 'member') then
            execute format('grant ${APP_ROLE} to %I', current_user);
          end if;
          -- Granted only when missing (a table added by a later migration), like the policies.
          if not has_schema_privilege('${APP_ROLE}', 'public', 'usage') then
            grant usage on schema public to ${APP_ROLE};
          end if;
          -- (offset 0 keeps the privilege checks from running on other kinds of relation first)
          if exists (select 1 from (select oid from pg_class where relnamespace = 'public'::regnamespace
                                      and relkind in ('r', 'v', 'p') offset 0) c
                     where not has_table_privilege('${APP_ROLE}', c.oid, 'select, insert, update, delete, truncate')) then
            grant select, insert, update, delete, truncate, references on all tables in schema public to ${APP_ROLE};
          end if;
          if exists (select 1 from (select oid from pg_class where relnamespace = 'public'::regnamespace
                                      and relkind = 'S' offset 0) c
                     where not has_sequence_privilege('${APP_ROLE}', c.oid, 'usage, select, update')) then
            grant usage, select, update on all sequences in schema public to ${APP_ROLE};
          end if;
        exception when insufficient_privilege then null;
        end;
      end if;
    end $$`),
  );
}

/**
 * The role the application should act as on this database: `pigeonhole_app` when the connecting
 * user bypasses row-level security and the role exists, otherwise none (an ordinary user is held
 * by the forced policies as it is).
 */
export async function appRoleFor(connectionString: string): Promise<string | null> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ role: string | null }>(
      `select case when (r.rolsuper or r.rolbypassrls) and exists (select 1 from pg_roles where rolname = $1)
              then $1 end as role
       from pg_roles r where r.rolname = current_user`,
      [APP_ROLE],
    );
    return rows[0]?.role ?? null;
  } finally {
    await client.end();
  }
}
