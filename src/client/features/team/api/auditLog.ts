import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@contract';
import { fetchPage, withQuery, type Page } from '@/lib/api';
import { auditLogQueryKey } from '@/lib/resources/keys';

export const AUDIT_PAGE_SIZE = 10;

/** One page of the organization's administration log, newest first (admins only). */
export function auditLogQuery(organizationId: string, page: number) {
  const params = { limit: AUDIT_PAGE_SIZE, offset: page * AUDIT_PAGE_SIZE };
  return queryOptions({
    queryKey: [...auditLogQueryKey(organizationId), params] as const,
    queryFn: (): Promise<Page<AuditEntry>> =>
      fetchPage<AuditEntry>(withQuery('/api/audit-log', params), organizationId),
  });
}

export function useAuditLog(organizationId: string, page: number) {
  return useQuery({
    ...auditLogQuery(organizationId, page),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}
