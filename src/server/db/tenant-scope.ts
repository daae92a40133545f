import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which organizations the database may show the code running now: the second wall behind the
 * repositories' `organization_id` filters (row-level security, see row-level-security.ts).
 *
 * A request that names its organization runs scoped to it (plugins/organization.ts), and every
 * statement it sends carries that scope as a transaction-local setting, so a query that forgets
 * its filter still sees that organization's rows only. Code with no scope (sign-in, the
 * workers, webhooks, the super admin console) is platform code and sees every organization.
 */
const scope = new AsyncLocalStorage<readonly string[] | null>();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a text is a UUID in its canonical form (any version): what an organization id can be. */
export const isUuid = (value: string) => UUID.test(value);

/** The organizations the current code is scoped to, or undefined for platform code. */
export function scopedOrganizations(): readonly string[] | undefined {
  return scope.getStore() ?? undefined;
}

/** Runs `work` (and everything it starts) scoped to these organizations. */
export function withTenants<T>(organizationIds: readonly string[], work: () => T): T {
  const ids = [...new Set(organizationIds)];
  if (ids.length === 0 || !ids.every((id) => UUID.test(id))) throw new Error('withTenants: organization ids expected');
  return scope.run(ids, work);
}

/**
 * Runs `work` as platform code, whatever scope started it: for work shared by several
 * organizations' requests (batched statements set their own scope) and for background work a
 * request merely wakes.
 */
export function asPlatform<T>(work: () => T): T {
  return scope.run(null, work);
}

/**
 * The statement that opens a scoped transaction. The ids are checked UUIDs, so they can be
 * written into the text: a setting cannot be a bind parameter of a multi-statement query, and
 * one round trip opens the transaction and sets the scope.
 */
export function beginScoped(organizationIds: readonly string[], begin = 'begin'): string {
  if (!organizationIds.every((id) => UUID.test(id))) throw new Error('beginScoped: organization ids expected');
  return `${begin}; select set_config('pigeonhole.organization_ids', '${organizationIds.join(',')}', true)`;
}
