import { writeBlockOf, type WriteBlock } from '@contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError } from './api';
import { useCurrentOrganization } from './currentOrganization';
import { organizationsQueryKey } from './resources/keys';
import { useNow } from './useNow';

const WRITE_BLOCK_CODES = new Set(['trial_expired', 'subscription_inactive']);

/** A 402 refusal because the trial ended or the subscription is not active. */
export function isWriteBlockError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 402 && WRITE_BLOCK_CODES.has(error.reply?.code ?? '');
}

/**
 * Why the current organization may not log mail, invite or add integrations right now (null when
 * it may): the rule the server enforces with 402, re-checked every minute.
 */
export function useWriteBlock(): WriteBlock | null {
  const { current } = useCurrentOrganization();
  const now = useNow();
  return current ? writeBlockOf(current, now) : null;
}

/**
 * A 402 `trial_expired` or `subscription_inactive` means the plan changed since the list was
 * loaded (the trial ended, a subscription was cancelled): reload the organizations so the banner
 * and the notices say so at once. The failed call's own toast shows the server's message.
 */
export function useRefreshOnWriteBlock() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const onError = (error: unknown) => {
      if (isWriteBlockError(error)) void queryClient.invalidateQueries({ queryKey: organizationsQueryKey });
    };
    const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    return () => {
      unsubscribeMutations();
      unsubscribeQueries();
    };
  }, [queryClient]);
}
