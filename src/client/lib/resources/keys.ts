import { orgQueryKey } from '../queryClient';

/*
 * The query keys that more than one feature reads or refreshes. A feature keeps its own keys beside
 * its calls; a key moves here once another feature has to invalidate it (a mail item logged changes
 * the dashboard, a recipient renamed changes the mail lists), so no feature imports another.
 */

export const currentUserQueryKey = ['/api/auth/user'] as const;

export const organizationsQueryKey = ['/api/organizations'] as const;

export function organizationQueryKey(id: string) {
  return [...organizationsQueryKey, id] as const;
}

export function membersQueryKey(organizationId: string) {
  return [...organizationQueryKey(organizationId), 'members'] as const;
}

export function organizationSettingsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/organization-settings');
}

/** Every mail item query of the organization (lists, summary, timelines); invalidating it refreshes them all. */
export function mailItemsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/mail-items');
}

/** Every History query of the organization. */
export function historyQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/history');
}

/** Every recipient list of the organization; invalidating it refreshes all of them. */
export function recipientsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/recipients');
}

export function mailroomsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/mailrooms');
}

/** Every storage-location list of the organization; mail item changes invalidate it (currentCount). */
export function locationsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/mailroom-locations');
}

export function auditLogQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/audit-log');
}

export function dashboardStatsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/dashboard/stats');
}

export function dashboardTrendsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/dashboard/trends');
}

/** Every Recent Mail Activity list (the key continues with the limit). */
export function recentActivityQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/dashboard/recent-activity');
}

/** Every Reports query. */
export function analyticsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/analytics');
}

/** The Total Recipients card. */
export function recipientSummaryQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/recipients/summary');
}
