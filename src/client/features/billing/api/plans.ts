import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PlansReply } from '@contract';
import { apiRequest } from '@/lib/api';

export const plansQueryKey = ['/api/plans'] as const;

/** The public plan table, and who takes each payment choice (null: not offered on this server). */
export function fetchPlans() {
  return apiRequest<PlansReply>('GET', '/api/plans');
}

/** The table only changes with a deployment: fetched once per page load. */
export const plansQuery = queryOptions({ queryKey: plansQueryKey, queryFn: fetchPlans });

export function usePlans() {
  return useQuery(plansQuery);
}
