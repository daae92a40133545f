import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { Recipient, RecipientBody } from '@contract';
import { apiRequest, fetchPage, withQuery, type Page } from '../api';
import { invalidateAfter } from './invalidate';
import { recipientsQueryKey } from './keys';

/*
 * Recipients are read and added from two features: the Recipients screen manages them, and the
 * intake form picks one (and adds one through its Add Recipient shortcut).
 */

export interface RecipientListParams {
  /** Matches name, email, unit and department. */
  search?: string;
  /** true: only active recipients; false: only inactive; omitted: both. */
  active?: boolean;
  limit?: number;
  offset?: number;
}

/** One page of recipients and how many match in all (the x-total-count header). */
export type RecipientPage = Page<Recipient>;

/** GET /api/recipients; the body is the page, the total travels in a header (spec §7). */
export function fetchRecipients(organizationId: string, params: RecipientListParams = {}): Promise<RecipientPage> {
  return fetchPage<Recipient>(withQuery('/api/recipients', { ...params }), organizationId);
}

export function recipientsQuery(organizationId: string, params: RecipientListParams = {}) {
  const { search = '', active, limit, offset = 0 } = params;
  return queryOptions({
    queryKey: [...recipientsQueryKey(organizationId), { search: search.trim(), active, limit, offset }] as const,
    queryFn: () => fetchRecipients(organizationId, params),
  });
}

/** A page of recipients; the previous page stays on screen while the next one loads. */
export function useRecipients(organizationId: string | undefined, params: RecipientListParams = {}) {
  return useQuery({
    ...recipientsQuery(organizationId ?? '', params),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function recipientName(recipient: Pick<Recipient, 'firstName' | 'lastName'>): string {
  return `${recipient.firstName} ${recipient.lastName}`.trim();
}

/** After any recipient change: what the map says a recipient change makes stale (invalidate.ts). */
export function invalidateRecipients(queryClient: QueryClient, organizationId: string) {
  return invalidateAfter(queryClient, organizationId, 'recipients');
}

export function createRecipient(organizationId: string, body: RecipientBody) {
  return apiRequest<Recipient>('POST', '/api/recipients', body, { organizationId });
}

/** Creates a recipient (members and admins); the reply, with its id, goes back to the caller. */
export function useCreateRecipient(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecipientBody) => createRecipient(organizationId, body),
    onSuccess: () => invalidateRecipients(queryClient, organizationId),
  });
}

/** PUT takes any subset of the fields, e.g. only `{isActive}`. */
export type RecipientChanges = Partial<RecipientBody>;

export function updateRecipient(organizationId: string, id: string, changes: RecipientChanges) {
  return apiRequest<Recipient>('PUT', `/api/recipients/${id}`, changes, { organizationId });
}

export function useUpdateRecipient(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: RecipientChanges }) =>
      updateRecipient(organizationId, id, changes),
    onSuccess: () => invalidateRecipients(queryClient, organizationId),
  });
}
