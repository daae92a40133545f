import type { User } from '@contract';
import { useCurrentUser } from '../api/currentUser';

/** The current user, for components that only render once signed in. */
export function useSignedInUser(): User {
  const { data } = useCurrentUser();
  if (!data) throw new Error('useSignedInUser is only for signed-in screens');
  return data;
}
