import type { MyOrganization } from '@contract';

/** Keeps the first entry of each id (spec §4: duplicates by id are collapsed). */
export function uniqueById(organizations: MyOrganization[]): MyOrganization[] {
  const seen = new Set<string>();
  return organizations.filter((org) => !seen.has(org.id) && seen.add(org.id));
}

/** The chosen organization if it is still in the list, else the first one, else null. */
export function pickOrganization(organizations: MyOrganization[], chosenId: string | null): MyOrganization | null {
  return organizations.find((org) => org.id === chosenId) ?? organizations[0] ?? null;
}
