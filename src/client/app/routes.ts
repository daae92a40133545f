import type { User } from '@contract';
import {
  ChartColumn,
  History,
  Inbox,
  LayoutDashboard,
  PackageOpen,
  Settings,
  UserSearch,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ShellKey } from '@/lib/i18n/namespaces/shell';

/**
 * The one route table: the router (AppRoutes, SignedInApp), the sidebar and the signed-in and
 * signed-out redirects all read it. Every screen is its own chunk, loaded when first shown (or
 * when a link to it is hovered), so a visitor on the landing page downloads no app screen and a
 * clerk's first load is the shell and the dashboard only.
 */

export type RouteParams = Record<string, string>;

/** A screen loaded on demand; `preload` starts the download without rendering it. */
export type LazyScreen<P> = LazyExoticComponent<ComponentType<P>> & { preload: () => Promise<unknown> };

export interface SignedOutScreenProps {
  params: RouteParams;
}
export interface SignedInScreenProps {
  user: User;
  params: RouteParams;
}

/** Where a signed-in screen is drawn. */
export type SignedInLayout =
  /** in the app shell (sidebar, plan banner), inside the current organization */
  | 'shell'
  /** inside the current organization but without the shell (the demo payment provider's page) */
  | 'page'
  /** on its own, outside any organization (joining one by invitation) */
  | 'standalone';

export interface NavEntry {
  /** The link's words: a key of the shell's catalogue. */
  label: ShellKey;
  icon: LucideIcon;
  group: 'main' | 'admin';
  /** A count beside the link (SidebarLink draws it): the items waiting for a recipient. */
  badge?: 'needs-recipient';
}

export interface SignedOutRoute {
  path: string;
  /** 'any' is drawn the same signed in or out (the emailed verification link). */
  access: 'signed-out' | 'any';
  screen: LazyScreen<SignedOutScreenProps>;
}

export interface SignedInRoute {
  path: string;
  access: 'signed-in';
  layout: SignedInLayout;
  screen: LazyScreen<SignedInScreenProps>;
  /** A link in the sidebar. */
  nav?: NavEntry;
  /** Shown (in a plain top-bar page) to this person even while they belong to no organization. */
  withoutOrganization?: (user: User) => boolean;
}

export type AppRoute = SignedOutRoute | SignedInRoute;

function lazyScreen<P>(load: () => Promise<ComponentType<P>>): LazyScreen<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const loader = () =>
    (loading ??= load()
      .then((component) => ({ default: component }))
      .catch((err: unknown) => {
        // a failed download (offline, a new deployment) may be tried again
        loading = undefined;
        throw err;
      }));
  return Object.assign(lazy(loader), { preload: loader });
}

/**
 * A signed-out screen that talks to the API through TanStack Query: loaded with QueryRoot (the
 * query library), which the landing page and the first chunk do without.
 */
function withQuery<P extends object>(load: () => Promise<ComponentType<P>>) {
  return () =>
    Promise.all([load(), import('./QueryRoot')]).then(([Screen, { withQueryRoot }]) => withQueryRoot(Screen));
}

// ---- Screens (one chunk each)

const Landing = lazyScreen<SignedOutScreenProps>(() => import('./screens/LandingScreen').then((m) => m.LandingScreen));
const Pricing = lazyScreen<SignedOutScreenProps>(() => import('./screens/PricingScreen').then((m) => m.PricingScreen));
const Auth = lazyScreen<SignedOutScreenProps>(() => import('./screens/AuthScreen').then((m) => m.AuthScreen));
const Login = lazyScreen<SignedOutScreenProps>(() => import('./screens/LoginScreen').then((m) => m.LoginScreen));
const Register = lazyScreen<SignedOutScreenProps>(() =>
  import('./screens/RegisterScreen').then((m) => m.RegisterScreen),
);
const ForgotPassword = lazyScreen<SignedOutScreenProps>(() =>
  import('./screens/ForgotPasswordScreen').then((m) => m.ForgotPasswordScreen),
);
const ResetPassword = lazyScreen<SignedOutScreenProps>(() =>
  import('./screens/ResetPasswordScreen').then((m) => m.ResetPasswordScreen),
);
const VerifyEmail = lazyScreen<SignedOutScreenProps>(
  withQuery(() => import('./screens/VerifyEmailScreen').then((m) => m.VerifyEmailScreen)),
);

const JoinInvitation = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/JoinInvitationScreen').then((m) => m.JoinInvitationScreen),
);
const Dashboard = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/DashboardScreen').then((m) => m.DashboardScreen),
);
const MailIntake = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/MailIntakeScreen').then((m) => m.MailIntakeScreen),
);
const PendingPickups = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/PendingPickupsScreen').then((m) => m.PendingPickupsScreen),
);
const NeedsRecipient = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/NeedsRecipientScreen').then((m) => m.NeedsRecipientScreen),
);
const Recipients = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/RecipientsScreen').then((m) => m.RecipientsScreen),
);
const HistoryScreen = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/HistoryScreen').then((m) => m.HistoryScreen),
);
const Reports = lazyScreen<SignedInScreenProps>(() => import('./screens/ReportsScreen').then((m) => m.ReportsScreen));
const Integrations = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/IntegrationsScreen').then((m) => m.IntegrationsScreen),
);
const SettingsScreen = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/SettingsScreen').then((m) => m.SettingsScreen),
);
const Billing = lazyScreen<SignedInScreenProps>(() => import('./screens/BillingScreen').then((m) => m.BillingScreen));
const Checkout = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/CheckoutScreen').then((m) => m.CheckoutScreen),
);
const DemoCheckout = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/DemoCheckoutScreen').then((m) => m.DemoCheckoutScreen),
);
// The print views: their own chunks (with the QR encoder), drawn without the shell.
const PrintLabels = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/PrintLabelsScreen').then((m) => m.PrintLabelsScreen),
);
const PrintSlips = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/PrintSlipsScreen').then((m) => m.PrintSlipsScreen),
);
const SuperAdmin = lazyScreen<SignedInScreenProps>(() =>
  import('./screens/SuperAdminScreen').then((m) => m.SuperAdminScreen),
);

// The recipient's own page (decision 032): drawn before and apart from the staff app (AppRoutes).
const PortalRequest = lazyScreen<SignedOutScreenProps>(() =>
  import('./screens/PortalRequestScreen').then((m) => m.PortalRequestScreen),
);
const PortalOpen = lazyScreen<SignedOutScreenProps>(() =>
  import('./screens/PortalOpenScreen').then((m) => m.PortalOpenScreen),
);
const PortalPage = lazyScreen<SignedOutScreenProps>(() =>
  import('./screens/PortalPageScreen').then((m) => m.PortalPageScreen),
);

/** The 404 page (spec §2), signed in (inside the shell) or out. */
export const NotFound = lazyScreen<object>(() => import('./screens/NotFoundScreen').then((m) => m.NotFoundScreen));

/** A signed-in screen inside the shell, with its entry in the sidebar. */
function sidebarScreen(path: string, screen: SignedInRoute['screen'], nav: NavEntry): SignedInRoute {
  return { path, access: 'signed-in', layout: 'shell', screen, nav };
}

/**
 * Every route, in the order they are tried. A path may appear twice, once for each state (`/` is
 * the landing page signed out and the dashboard signed in; /auth, /login and /register offer to
 * join an invitation's organization signed in).
 */
export const routes: readonly AppRoute[] = [
  // Signed out (spec §2). A signed-in visit to one of these (without a signed-in twin) goes to /.
  { path: '/', access: 'signed-out', screen: Landing },
  { path: '/homepage', access: 'signed-out', screen: Landing },
  { path: '/pricing', access: 'signed-out', screen: Pricing },
  { path: '/auth', access: 'signed-out', screen: Auth },
  { path: '/auth/:tab', access: 'signed-out', screen: Auth },
  { path: '/login', access: 'signed-out', screen: Login },
  { path: '/register', access: 'signed-out', screen: Register },
  { path: '/forgot-password', access: 'signed-out', screen: ForgotPassword },
  { path: '/reset-password', access: 'signed-out', screen: ResetPassword },
  // the emailed link works signed in too
  { path: '/verify-email', access: 'any', screen: VerifyEmail },
  // a recipient's page: its own session, the same whether a staff session exists or not
  { path: '/my', access: 'any', screen: PortalRequest },
  { path: '/my/open', access: 'any', screen: PortalOpen },
  { path: '/my/packages', access: 'any', screen: PortalPage },

  // Signed in. A signed-out visit to one of these (without a signed-out twin) goes to /login.
  // An invitation link opened while signed in offers to join; without a token these go to /.
  { path: '/auth', access: 'signed-in', layout: 'standalone', screen: JoinInvitation },
  { path: '/auth/:tab', access: 'signed-in', layout: 'standalone', screen: JoinInvitation },
  { path: '/login', access: 'signed-in', layout: 'standalone', screen: JoinInvitation },
  { path: '/register', access: 'signed-in', layout: 'standalone', screen: JoinInvitation },
  { path: '/', access: 'signed-in', layout: 'shell', screen: Dashboard },
  sidebarScreen('/dashboard', Dashboard, { label: 'nav.dashboard', icon: LayoutDashboard, group: 'main' }),
  sidebarScreen('/mail-intake', MailIntake, { label: 'nav.mailIntake', icon: Inbox, group: 'main' }),
  sidebarScreen('/pending-pickups', PendingPickups, { label: 'nav.pendingPickups', icon: PackageOpen, group: 'main' }),
  sidebarScreen('/needs-recipient', NeedsRecipient, {
    label: 'nav.needsRecipient',
    icon: UserSearch,
    group: 'main',
    badge: 'needs-recipient',
  }),
  sidebarScreen('/recipients', Recipients, { label: 'nav.recipients', icon: Users, group: 'main' }),
  sidebarScreen('/history', HistoryScreen, { label: 'nav.history', icon: History, group: 'main' }),
  sidebarScreen('/reports', Reports, { label: 'nav.reports', icon: ChartColumn, group: 'main' }),
  { path: '/integrations', access: 'signed-in', layout: 'shell', screen: Integrations },
  sidebarScreen('/settings', SettingsScreen, { label: 'nav.settings', icon: Settings, group: 'admin' }),
  { path: '/settings-billing', access: 'signed-in', layout: 'shell', screen: Billing },
  { path: '/subscription-management', access: 'signed-in', layout: 'shell', screen: Billing },
  { path: '/checkout', access: 'signed-in', layout: 'shell', screen: Checkout },
  // the demo payment provider stands in for Stripe's own page: no app shell around it
  { path: '/checkout/demo/:id', access: 'signed-in', layout: 'page', screen: DemoCheckout },
  // printed on paper: a toolbar and the labels or slips, no sidebar (decision 034)
  { path: '/print/labels', access: 'signed-in', layout: 'page', screen: PrintLabels },
  { path: '/print/slips', access: 'signed-in', layout: 'page', screen: PrintSlips },
  {
    path: '/super-admin',
    access: 'signed-in',
    layout: 'shell',
    screen: SuperAdmin,
    // a platform operator may belong to no organization: the console does not need one
    withoutOrganization: (user) => user.isSuperAdmin,
  },
];

// ---- Matching

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** The parameters of `path` under `pattern` (`/checkout/demo/:id`), or null when it does not match. */
export function matchPath(pattern: string, path: string): RouteParams | null {
  const want = segments(pattern);
  const got = segments(path);
  if (want.length !== got.length) return null;
  const params: RouteParams = {};
  for (const [i, part] of want.entries()) {
    const value = got[i]!;
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part.toLowerCase() !== value.toLowerCase()) {
      return null;
    }
  }
  return params;
}

export type Resolution =
  | { kind: 'signed-out'; route: SignedOutRoute; params: RouteParams }
  | { kind: 'signed-in'; route: SignedInRoute; params: RouteParams }
  | { kind: 'redirect'; to: string }
  | { kind: 'not-found' };

/** Where a signed-out visit to a signed-in page goes, and the reverse (spec §2). */
export const SIGN_IN_PATH = '/login';
export const HOME_PATH = '/';

/**
 * What `path` shows: the first route for this state that matches; a route only for the other
 * state redirects (signed out to /login, signed in to /); no route at all is the 404 page.
 */
export function resolveRoute(path: string, signedIn: boolean, table: readonly AppRoute[] = routes): Resolution {
  let otherState = false;
  for (const route of table) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    if (route.access === 'any' || (route.access === 'signed-in') === signedIn) {
      return route.access === 'signed-in'
        ? { kind: 'signed-in', route, params }
        : { kind: 'signed-out', route, params };
    }
    otherState = true;
  }
  if (otherState) return { kind: 'redirect', to: signedIn ? HOME_PATH : SIGN_IN_PATH };
  return { kind: 'not-found' };
}

/** Starts downloading the screen `path` shows (on a link's hover or focus), so the click feels instant. */
export function preloadPath(path: string, signedIn: boolean) {
  const resolution = resolveRoute(path, signedIn);
  if (resolution.kind === 'signed-in' || resolution.kind === 'signed-out') {
    resolution.route.screen.preload().catch(() => undefined);
  }
}

/** The sidebar's links, in table order. */
export function navRoutes(group: NavEntry['group']): (SignedInRoute & { nav: NavEntry })[] {
  return routes.filter(
    (route): route is SignedInRoute & { nav: NavEntry } => route.access === 'signed-in' && route.nav?.group === group,
  );
}

/** A sidebar link is current when the location shows its screen (`/` highlights Dashboard). */
export function isCurrentNav(route: SignedInRoute, location: string): boolean {
  const shown = resolveRoute(location, true);
  return shown.kind === 'signed-in' && shown.route.screen === route.screen;
}

/** The recipient's page (decision 032): its routes never wait for, nor load, the staff app. */
export const isPortalPath = (path: string) => /^\/my(\/|$)/i.test(path);
