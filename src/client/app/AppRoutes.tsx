import { lazy, Suspense } from 'react';
import { PageSpinner } from '@/components/ui/spinner';
import { useCurrentUser } from '@/features/auth/api/currentUser';

// Two chunks: a visitor on the landing page never downloads the signed-in app, and a clerk's
// browser never downloads the marketing and sign-up screens once signed in.
const SignedInRoutes = lazy(() => import('./SignedInRoutes').then((m) => ({ default: m.SignedInRoutes })));
const SignedOutRoutes = lazy(() => import('./SignedOutRoutes').then((m) => ({ default: m.SignedOutRoutes })));

/** Spec §4: signed in exactly when the current-user call returns a user. */
export function AppRoutes() {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <PageSpinner />;
  return <Suspense fallback={<PageSpinner />}>{user ? <SignedInRoutes user={user} /> : <SignedOutRoutes />}</Suspense>;
}
