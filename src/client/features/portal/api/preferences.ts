import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotifyChannel, PortalMe } from '@contract';
import { portalMeQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/**
 * PUT /api/portal/preferences: the channels the recipient wants to hear on (null: every channel
 * offered); answers the whole `me`.
 */
export function setNotifyChannels(notifyChannels: NotifyChannel[] | null) {
  return portalRequest<PortalMe>('PUT', '/api/portal/preferences', { notifyChannels });
}

export function useSetNotifyChannels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setNotifyChannels,
    onSuccess: (me) => queryClient.setQueryData(portalMeQueryKey, me),
  });
}
