import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { forgetKeptSession } from '@/lib/offlineSession';

export function logout() {
  return apiRequest<void>('POST', '/api/logout');
}

/** Spec §4: whether the server call succeeds or not, the browser goes to /. */
export function useLogout() {
  return useMutation({
    mutationFn: logout,
    onError: (err) => console.error('Logout failed', err),
    onSettled: () => {
      // Offline too: the next reload must not open this person's desk from what was kept.
      forgetKeptSession();
      window.location.href = '/';
    },
  });
}
