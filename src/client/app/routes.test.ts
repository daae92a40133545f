import english from '../../locales/en/shell.json';
import { describe, expect, it } from 'vitest';
import { isCurrentNav, matchPath, navRoutes, resolveRoute, routes, type SignedInRoute } from './routes';

/** A concrete address of a route's pattern (`/checkout/demo/:id` → `/checkout/demo/x1`). */
const concrete = (pattern: string) => pattern.replace(/:\w+/g, 'x1');
const screenOf = (path: string, signedIn: boolean) => {
  const r = resolveRoute(path, signedIn);
  return r.kind === 'signed-in' || r.kind === 'signed-out' ? r.route.screen : null;
};

describe('the route table', () => {
  it('sends a signed-out visit to /reports to the login, not the 404 page (issue 14)', () => {
    expect(resolveRoute('/reports', false)).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('sends a signed-out visit to every signed-in page to /login, and a signed-in one to every signed-out page to /', () => {
    for (const route of routes) {
      const path = concrete(route.path);
      const twin = routes.some(
        (other) => other !== route && other.access !== route.access && matchPath(other.path, path),
      );
      if (route.access === 'signed-in' && !twin) {
        expect(resolveRoute(path, false), path).toEqual({ kind: 'redirect', to: '/login' });
      }
      if (route.access === 'signed-out' && !twin) {
        expect(resolveRoute(path, true), path).toEqual({ kind: 'redirect', to: '/' });
      }
    }
    for (const path of ['/homepage', '/pricing', '/forgot-password', '/reset-password']) {
      expect(resolveRoute(path, true), path).toEqual({ kind: 'redirect', to: '/' });
    }
  });

  it('gives every sidebar link a signed-in screen, and the sidebar the spec’s order', () => {
    // As the English catalogue words them (the links' text is the shell catalogue's).
    expect(navRoutes('main').map((r) => english[r.nav.label])).toEqual([
      'Dashboard',
      'Mail Intake',
      'Pending Pickups',
      'Needs a recipient',
      'Recipients',
      'History',
      'Reports',
    ]);
    expect(navRoutes('admin').map((r) => r.path)).toEqual(['/settings']);
    for (const route of [...navRoutes('main'), ...navRoutes('admin')]) {
      const shown = resolveRoute(route.path, true);
      expect(shown.kind, route.path).toBe('signed-in');
      expect(resolveRoute(route.path, false), route.path).toEqual({ kind: 'redirect', to: '/login' });
    }
  });

  it('shows the landing page at / signed out and the dashboard signed in', () => {
    const out = resolveRoute('/', false);
    const inside = resolveRoute('/', true);
    expect(out.kind).toBe('signed-out');
    expect(inside.kind).toBe('signed-in');
    expect(screenOf('/homepage', false)).toBe(screenOf('/', false));
    expect(screenOf('/dashboard', true)).toBe(screenOf('/', true));
    expect(screenOf('/', false)).not.toBe(screenOf('/', true));
  });

  it('opens /auth/login and /auth/register with the tab in the parameters, and offers to join when signed in', () => {
    const login = resolveRoute('/auth/login', false);
    expect(login.kind === 'signed-out' && login.params).toEqual({ tab: 'login' });
    expect(screenOf('/auth/login', false)).toBe(screenOf('/auth', false));
    const signedIn = resolveRoute('/auth/login', true);
    expect(signedIn.kind === 'signed-in' && signedIn.route.layout).toBe('standalone');
  });

  it('reads parameters, ignores a trailing slash and case, and answers 404 for unknown addresses', () => {
    const demo = resolveRoute('/checkout/demo/3f1c', true);
    expect(demo.kind === 'signed-in' && [demo.route.layout, demo.params]).toEqual(['page', { id: '3f1c' }]);
    expect(resolveRoute('/Reports/', true).kind).toBe('signed-in');
    expect(resolveRoute('/no-such-page', true)).toEqual({ kind: 'not-found' });
    expect(resolveRoute('/no-such-page', false)).toEqual({ kind: 'not-found' });
    expect(resolveRoute('/reports/extra', false)).toEqual({ kind: 'not-found' });
    expect(resolveRoute('/verify-email', true).kind).toBe('signed-out'); // 'any': the same page signed in
  });

  it('highlights Dashboard at / and only the current link', () => {
    const dashboard = navRoutes('main').find((r) => r.nav.label === 'nav.dashboard') as SignedInRoute;
    const reports = navRoutes('main').find((r) => r.nav.label === 'nav.reports') as SignedInRoute;
    expect(isCurrentNav(dashboard, '/')).toBe(true);
    expect(isCurrentNav(dashboard, '/dashboard')).toBe(true);
    expect(isCurrentNav(dashboard, '/reports')).toBe(false);
    expect(isCurrentNav(reports, '/reports')).toBe(true);
  });
});
