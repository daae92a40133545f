import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageReply, RecoveryCodesReply, TwoFactorSetupReply, TwoFactorStatus } from '@contract';
import { apiRequest } from '@/lib/api';

export const twoFactorQueryKey = ['/api/auth/two-factor'] as const;

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorQueryKey,
    queryFn: () => apiRequest<TwoFactorStatus>('GET', '/api/auth/two-factor'),
  });
}

/** A change to two-factor: the status refreshes after it. */
function useTwoFactorChange<Body, Reply>(url: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => apiRequest<Reply>('POST', url, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorQueryKey }),
  });
}

export const useTwoFactorSetup = () =>
  useTwoFactorChange<{ password: string }, TwoFactorSetupReply>('/api/auth/two-factor/setup');
export const useTwoFactorEnable = () =>
  useTwoFactorChange<{ code: string }, RecoveryCodesReply>('/api/auth/two-factor/enable');
export const useTwoFactorDisable = () =>
  useTwoFactorChange<{ password: string; code: string }, MessageReply>('/api/auth/two-factor/disable');
export const useNewRecoveryCodes = () =>
  useTwoFactorChange<{ code: string }, RecoveryCodesReply>('/api/auth/two-factor/recovery-codes');
