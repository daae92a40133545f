import { sql, type SQL } from 'drizzle-orm';

/**
 * An organization's data version (decision 037): the sum of its shards in
 * organization_data_versions, which triggers raise inside every transaction that writes what the
 * caches are built from. Read before a cached read (in the statement that reads the session), it
 * names the entries that request may be served: only those built at that version. As text, since
 * the sum is a bigint; '0' before the organization's first write.
 */
export const organizationDataVersionSql = (organizationId: SQL): SQL<string> =>
  sql<string>`(select coalesce(sum(v.version), 0)::text from organization_data_versions v where v.organization_id = ${organizationId})`;
