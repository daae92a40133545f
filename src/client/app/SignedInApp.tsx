import type { User } from '@contract';
import { Suspense, useLayoutEffect, type ReactNode } from 'react';
import { Redirect, useLocation } from 'wouter';
import { twMerge } from 'tailwind-merge';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { TooltipProvider } from '@/components/ui/tooltip';
import { OrganizationProvider } from '@/features/organizations/components/OrganizationProvider';
import { mergeClassesWith } from '@/lib/cn';
import { useCurrentOrganization } from '@/lib/currentOrganization';
import { useLiveEvents } from '@/lib/liveEvents';
import { setAccountLanguage } from '@/lib/i18n/language';
import { AppShell } from './layout/AppShell';
import { StandaloneShell } from './layout/StandaloneShell';
import { QueryRoot } from './QueryRoot';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { NotFound, resolveRoute, type RouteParams, type SignedInRoute } from './routes';
import { OnboardingScreen } from './screens/OnboardingScreen';
import { OrganizationsUnavailableScreen } from './screens/OrganizationsUnavailableScreen';

// the signed-in screens override their components' classes: resolve the conflicts (lib/cn.ts)
mergeClassesWith(twMerge);

/** A screen of the route table, or the 404 page when `route` is null. */
function Screen({ route, params, user }: { route: SignedInRoute | null; params: RouteParams; user: User }) {
  if (!route) return <NotFound />;
  const Component = route.screen;
  return <Component user={user} params={params} />;
}

function ScreenSpinner() {
  return (
    <div className="flex min-h-[50dvh] items-center justify-center">
      <Spinner className="size-8" />
    </div>
  );
}

/**
 * Everything that needs the current organization: a spinner while the list loads, onboarding
 * while the person has none, then the screen (in the shell, or alone for the 'page' layout).
 */
function OrganizationRoutes({ route, params, user }: { route: SignedInRoute | null; params: RouteParams; user: User }) {
  const { organizations, current, isLoading, loadFailed } = useCurrentOrganization();
  const [location] = useLocation();
  // The one live stream of the signed-in shell: the screens follow other desks' changes (decision 043).
  useLiveEvents(current?.id);

  if (isLoading) return <PageSpinner />;
  if (loadFailed) return <OrganizationsUnavailableScreen />;
  if (organizations.length === 0) {
    if (route?.withoutOrganization?.(user)) {
      return (
        <StandaloneShell user={user} wide>
          <Suspense fallback={<ScreenSpinner />}>
            <Screen route={route} params={params} user={user} />
          </Suspense>
        </StandaloneShell>
      );
    }
    return <OnboardingScreen user={user} />;
  }

  const screen = (
    <RouteErrorBoundary location={location} inline>
      <Suspense fallback={<ScreenSpinner />}>
        <Screen route={route} params={params} user={user} />
      </Suspense>
    </RouteErrorBoundary>
  );
  if (route?.layout === 'page') return screen;
  return <AppShell user={user}>{screen}</AppShell>;
}

/**
 * The signed-in app: the route table's signed-in screens, and redirects away from signed-out pages;
 * TanStack Query (started from the session check) and tooltips for everything in it.
 */
export function SignedInApp({ user }: { user: User }) {
  // The screens speak the account's language (Account settings), else the browser's; before the
  // first paint. Set here, not by the first chunk's session check, which stays as small as it is.
  const language = user.language ?? null;
  useLayoutEffect(() => {
    setAccountLanguage(language);
    return () => setAccountLanguage(null);
  }, [language]);
  const [location] = useLocation();
  const resolution = resolveRoute(location, true);

  let content: ReactNode;
  if (resolution.kind === 'redirect') {
    content = <Redirect to={resolution.to} replace />;
  } else if (resolution.kind === 'signed-out') {
    // 'any' routes (the emailed verification link) look the same signed in
    const Component = resolution.route.screen;
    content = <Component params={resolution.params} />;
  } else if (resolution.kind === 'signed-in' && resolution.route.layout === 'standalone') {
    const Component = resolution.route.screen;
    content = <Component user={user} params={resolution.params} />;
  } else {
    // the same element tree for every shell route, so the shell stays mounted between screens
    content = (
      <OrganizationProvider>
        <OrganizationRoutes
          route={resolution.kind === 'signed-in' ? resolution.route : null}
          params={resolution.kind === 'signed-in' ? resolution.params : {}}
          user={user}
        />
      </OrganizationProvider>
    );
  }
  return (
    <QueryRoot>
      <TooltipProvider>
        <Suspense fallback={<PageSpinner />}>{content}</Suspense>
      </TooltipProvider>
    </QueryRoot>
  );
}
