import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PlatformLogEntry,
  PlatformLogKind,
  PlatformStats,
  SuperAdminOrganization,
  SuperAdminUser,
  UpdatePlatformOrganizationBody,
  UpdatePlatformUserBody,
} from '@contract';
import { apiRequest, fetchPage, withQuery } from '@/lib/api';

/**
 * The super admin console's calls. They belong to no organization (no header), so their keys
 * start with 'super-admin' and one invalidation refreshes the figures and every list.
 */

export const PLATFORM_PAGE_SIZE = 25;
const ROOT = ['super-admin'] as const;

const pageParams = (search: string, page: number) => ({
  search: search || undefined,
  limit: PLATFORM_PAGE_SIZE,
  offset: page * PLATFORM_PAGE_SIZE,
});

export function usePlatformStats() {
  return useQuery({
    queryKey: [...ROOT, 'stats'],
    queryFn: () => apiRequest<PlatformStats>('GET', '/api/super-admin/stats'),
    refetchOnMount: 'always',
  });
}

export function usePlatformOrganizations(search: string, page: number) {
  const params = pageParams(search, page);
  return useQuery({
    queryKey: [...ROOT, 'organizations', params],
    queryFn: () => fetchPage<SuperAdminOrganization>(withQuery('/api/super-admin/organizations', params)),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}

export function usePlatformUsers(search: string, page: number) {
  const params = pageParams(search, page);
  return useQuery({
    queryKey: [...ROOT, 'users', params],
    queryFn: () => fetchPage<SuperAdminUser>(withQuery('/api/super-admin/users', params)),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}

export function usePlatformLogs(kind: PlatformLogKind | undefined, search: string, page: number) {
  const params = { ...pageParams(search, page), kind };
  return useQuery({
    queryKey: [...ROOT, 'logs', params],
    queryFn: () => fetchPage<PlatformLogEntry>(withQuery('/api/super-admin/logs', params)),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}

export function useUpdatePlatformOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: UpdatePlatformOrganizationBody }) =>
      apiRequest<SuperAdminOrganization>('PATCH', `/api/super-admin/organizations/${id}`, change),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ROOT }),
  });
}

export function useUpdatePlatformUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: UpdatePlatformUserBody }) =>
      apiRequest<SuperAdminUser>('PATCH', `/api/super-admin/users/${id}`, change),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ROOT }),
  });
}
