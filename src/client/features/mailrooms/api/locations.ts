import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Location, LocationBody as LocationBodySchema } from '@contract';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

/** What POST takes (PUT takes any subset). */
export type LocationBody = z.input<typeof LocationBodySchema>;

/** Every storage-location list of the organization; mail item changes invalidate it (currentCount). */
export function locationsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/mailroom-locations');
}

export function fetchLocations(organizationId: string, mailroomId?: string) {
  const url = mailroomId
    ? `/api/mailroom-locations?mailroomId=${encodeURIComponent(mailroomId)}`
    : '/api/mailroom-locations';
  return apiRequest<Location[]>('GET', url, undefined, { organizationId });
}

/** All locations, or only one mailroom's. */
export function locationsQuery(organizationId: string, mailroomId?: string) {
  return queryOptions({
    queryKey: [...locationsQueryKey(organizationId), { mailroomId: mailroomId ?? null }] as const,
    queryFn: () => fetchLocations(organizationId, mailroomId),
  });
}

export function useLocations(organizationId: string | undefined, mailroomId?: string) {
  return useQuery({ ...locationsQuery(organizationId ?? '', mailroomId), enabled: Boolean(organizationId) });
}
