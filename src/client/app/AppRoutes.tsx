import { lazy, Suspense } from 'react';
import { Redirect, useLocation } from 'wouter';
import { PageLoading } from './PageLoading';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { isPortalPath, NotFound, resolveRoute } from './routes';
import { useSessionUser } from './session';

// The signed-in app (shell, organization, TanStack Query, tooltips) is one chunk: a visitor on the
// landing page never downloads it.
const SignedInApp = lazy(() => import('./SignedInApp').then((m) => ({ default: m.SignedInApp })));

/** Signed-out pages: the route table's screen, a redirect to /login, or the 404 page. */
function SignedOutApp() {
  const [location] = useLocation();
  const resolution = resolveRoute(location, false);
  if (resolution.kind === 'redirect') return <Redirect to={resolution.to} replace />;
  if (resolution.kind === 'not-found' || resolution.kind === 'signed-in') {
    // (resolveRoute never answers 'signed-in' for a signed-out visit)
    return (
      <div className="min-h-dvh bg-canvas">
        <NotFound />
      </div>
    );
  }
  const Screen = resolution.route.screen;
  // a new route (/auth to /auth/login) starts its screen afresh
  return <Screen key={resolution.route.path} params={resolution.params} />;
}

/** The recipient's page: drawn at once, signed in to the staff app or not, without its chunks. */
function PortalRoutes({ location }: { location: string }) {
  const resolution = resolveRoute(location, false);
  if (resolution.kind !== 'signed-out') return <Redirect to="/my" replace />;
  const Screen = resolution.route.screen;
  return (
    <RouteErrorBoundary location={location}>
      <Suspense fallback={<PageLoading />}>
        <Screen key={resolution.route.path} params={resolution.params} />
      </Suspense>
    </RouteErrorBoundary>
  );
}

export function AppRoutes() {
  const [location] = useLocation();
  return isPortalPath(location) ? <PortalRoutes location={location} /> : <StaffRoutes location={location} />;
}

/** Spec §4: signed in exactly when the current-user call returns a user. */
function StaffRoutes({ location }: { location: string }) {
  const user = useSessionUser();
  if (user === undefined) return <PageLoading />;
  if (user) {
    // Download the screen beside the shell instead of after it.
    const shown = resolveRoute(location, true);
    if (shown.kind === 'signed-in' || shown.kind === 'signed-out') shown.route.screen.preload().catch(() => undefined);
  }
  return (
    <RouteErrorBoundary location={location}>
      <Suspense fallback={<PageLoading />}>{user ? <SignedInApp user={user} /> : <SignedOutApp />}</Suspense>
    </RouteErrorBoundary>
  );
}
