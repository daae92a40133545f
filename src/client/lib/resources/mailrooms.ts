import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Location, Mailroom } from '@contract';
import { apiRequest } from '../api';
import { locationsQueryKey, mailroomsQueryKey } from './keys';

export function fetchMailrooms(organizationId: string) {
  return apiRequest<Mailroom[]>('GET', '/api/mailrooms', undefined, { organizationId });
}

export function mailroomsQuery(organizationId: string) {
  return queryOptions({ queryKey: mailroomsQueryKey(organizationId), queryFn: () => fetchMailrooms(organizationId) });
}

/** The organization's mailrooms (Settings > Mailrooms, and the intake form's storage choice). */
export function useMailrooms(organizationId: string | undefined) {
  return useQuery({ ...mailroomsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
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
