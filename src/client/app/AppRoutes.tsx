import { PageSpinner } from '@/components/ui/spinner';
import { useCurrentUser } from '@/features/auth/api/currentUser';
import { SignedInRoutes } from './SignedInRoutes';
import { SignedOutRoutes } from './SignedOutRoutes';

/** Spec §4: signed in exactly when the current-user call returns a user. */
export function AppRoutes() {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <PageSpinner />;
  return user ? <SignedInRoutes user={user} /> : <SignedOutRoutes />;
}
