import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Mailroom, MailroomBody as MailroomBodySchema } from '@contract';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

/** What POST takes (PUT takes any subset). */
export type MailroomBody = z.input<typeof MailroomBodySchema>;

export function mailroomsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/mailrooms');
}

export function fetchMailrooms(organizationId: string) {
  return apiRequest<Mailroom[]>('GET', '/api/mailrooms', undefined, { organizationId });
}

export function mailroomsQuery(organizationId: string) {
  return queryOptions({ queryKey: mailroomsQueryKey(organizationId), queryFn: () => fetchMailrooms(organizationId) });
}

export function useMailrooms(organizationId: string | undefined) {
  return useQuery({ ...mailroomsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}
