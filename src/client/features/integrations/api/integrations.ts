import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApiKey as ApiKeySchema,
  CreateIntegrationBody,
  CreatedApiKey as CreatedApiKeySchema,
  CreatedIntegration as CreatedIntegrationSchema,
  Integration,
  IntegrationConfigInput,
  IntegrationType,
  NotificationMessage,
  SlackChannel,
  TestIntegrationReply as TestIntegrationReplySchema,
} from '@contract';
import type { z } from 'zod';
import { apiRequest, fetchPage, withQuery, type Page } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export type CreatedIntegration = z.infer<typeof CreatedIntegrationSchema>;
export type TestIntegrationReply = z.infer<typeof TestIntegrationReplySchema>;
export type ApiKey = z.infer<typeof ApiKeySchema>;
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;
export type IntegrationConfigDraft = z.input<typeof IntegrationConfigInput>;
export type NewIntegration = z.input<typeof CreateIntegrationBody> & { type: IntegrationType };

/** Every integrations query of the organization (list, deliveries, keys). */
export function integrationsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/integrations');
}

export function fetchIntegrations(organizationId: string) {
  return apiRequest<Integration[]>('GET', '/api/integrations', undefined, { organizationId });
}

export function integrationsQuery(organizationId: string) {
  return queryOptions({
    queryKey: [...integrationsQueryKey(organizationId), 'list'] as const,
    queryFn: () => fetchIntegrations(organizationId),
  });
}

/** The organization's integrations (members read them too). */
export function useIntegrations(organizationId: string | undefined) {
  return useQuery({ ...integrationsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}

function useInvalidate(organizationId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: integrationsQueryKey(organizationId) });
}

export function useCreateIntegration(organizationId: string) {
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: (body: NewIntegration) =>
      apiRequest<CreatedIntegration>('POST', '/api/integrations', { ...body, organizationId }, { organizationId }),
    onSuccess: invalidate,
  });
}

export interface IntegrationChanges {
  name?: string;
  config?: IntegrationConfigDraft;
  isActive?: boolean;
}

/** PUT takes the full payload, or only `{isActive}` (spec §7). */
export function useUpdateIntegration(organizationId: string) {
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: IntegrationChanges }) =>
      apiRequest<Integration>('PUT', `/api/integrations/${id}`, changes, { organizationId }),
    onSuccess: invalidate,
  });
}

export function useDeleteIntegration(organizationId: string) {
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', `/api/integrations/${id}`, undefined, { organizationId }),
    onSuccess: invalidate,
  });
}

/** Sends a test message now: email to the caller, SMS to `to`, a webhook ping to its URL. */
export function useTestIntegration(organizationId: string) {
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: ({ id, to }: { id: string; to?: string }) =>
      apiRequest<TestIntegrationReply>('POST', `/api/integrations/${id}/test`, to ? { to } : {}, { organizationId }),
    onSettled: invalidate,
  });
}

/** A webhook's new signing secret, answered once. */
export function useRotateWebhookSecret(organizationId: string) {
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<{ webhookSecret: string }>('POST', `/api/integrations/${id}/rotate-secret`, {}, { organizationId }),
    onSuccess: invalidate,
  });
}

export const DELIVERIES_PAGE_SIZE = 20;

/** One page of a webhook's delivery log, newest first; the total is in x-total-count. */
export function useDeliveries(organizationId: string, integrationId: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: [...integrationsQueryKey(organizationId), 'deliveries', integrationId, page] as const,
    queryFn: (): Promise<Page<NotificationMessage>> =>
      fetchPage<NotificationMessage>(
        withQuery(`/api/integrations/${integrationId}/deliveries`, {
          limit: DELIVERIES_PAGE_SIZE,
          offset: page * DELIVERIES_PAGE_SIZE,
        }),
        organizationId,
      ),
    enabled,
    placeholderData: keepPreviousData,
  });
}

function apiKeysKey(organizationId: string, integrationId: string) {
  return [...integrationsQueryKey(organizationId), 'api-keys', integrationId] as const;
}

export function useApiKeys(organizationId: string, integrationId: string, enabled: boolean) {
  return useQuery({
    queryKey: apiKeysKey(organizationId, integrationId),
    queryFn: () =>
      apiRequest<ApiKey[]>('GET', `/api/integrations/${integrationId}/api-keys`, undefined, { organizationId }),
    enabled,
  });
}

export function useCreateApiKey(organizationId: string, integrationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      apiRequest<CreatedApiKey>('POST', `/api/integrations/${integrationId}/api-keys`, { name }, { organizationId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey(organizationId, integrationId) }),
  });
}

export function useRevokeApiKey(organizationId: string, integrationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      apiRequest<void>('DELETE', `/api/integrations/${integrationId}/api-keys/${keyId}`, undefined, {
        organizationId,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey(organizationId, integrationId) }),
  });
}

/** The Slack channels the integration's stored bot token sees: the staff channel's choices (admins). */
export function useSlackChannels(organizationId: string, integrationId: string | undefined) {
  return useQuery({
    queryKey: [...integrationsQueryKey(organizationId), 'slack-channels', integrationId] as const,
    queryFn: () =>
      apiRequest<SlackChannel[]>('GET', `/api/integrations/${integrationId}/slack-channels`, undefined, {
        organizationId,
      }),
    enabled: Boolean(integrationId),
    retry: false,
    staleTime: 60_000,
  });
}
