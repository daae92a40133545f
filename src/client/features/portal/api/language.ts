import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Language, PortalMe } from '@contract';
import { portalMeQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/** PUT /api/portal/language: the recipient's language, for the page and their messages (decision 066). */
export function setPortalLanguage(language: Language) {
  return portalRequest<PortalMe>('PUT', '/api/portal/language', { language });
}

export function useSetPortalLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPortalLanguage,
    onSuccess: (me) => queryClient.setQueryData(portalMeQueryKey, me),
  });
}
