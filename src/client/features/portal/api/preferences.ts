import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotifyBy, PortalMe } from '@contract';
import { portalMeQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/** PUT /api/portal/preferences: how the recipient wants to hear; answers the whole `me`. */
export function setNotifyBy(notifyBy: NotifyBy) {
  return portalRequest<PortalMe>('PUT', '/api/portal/preferences', { notifyBy });
}

export function useSetNotifyBy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setNotifyBy,
    onSuccess: (me) => queryClient.setQueryData(portalMeQueryKey, me),
  });
}
