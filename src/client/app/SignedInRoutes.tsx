import type { User } from '@contract';
import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { PageSpinner } from '@/components/ui/spinner';
import { OrganizationProvider } from '@/features/organizations/components/OrganizationProvider';
import { useCurrentOrganization } from '@/features/organizations/hooks/useCurrentOrganization';
import { AppShell } from './layout/AppShell';
import { BillingScreen } from './screens/BillingScreen';
import { CheckoutScreen } from './screens/CheckoutScreen';
import { DashboardScreen } from './screens/DashboardScreen';
import { DemoCheckoutScreen } from './screens/DemoCheckoutScreen';
import { HistoryScreen } from './screens/HistoryScreen';
import { IntegrationsScreen } from './screens/IntegrationsScreen';
import { JoinInvitationScreen } from './screens/JoinInvitationScreen';
import { MailIntakeScreen } from './screens/MailIntakeScreen';
import { NotFoundScreen } from './screens/NotFoundScreen';
import { OnboardingScreen } from './screens/OnboardingScreen';
import { OrganizationsUnavailableScreen } from './screens/OrganizationsUnavailableScreen';
import { PendingPickupsScreen } from './screens/PendingPickupsScreen';
import { RecipientsScreen } from './screens/RecipientsScreen';
import { SettingsScreen } from './screens/SettingsScreen';
import { SuperAdminScreen } from './screens/SuperAdminScreen';
import { VerifyEmailScreen } from './screens/VerifyEmailScreen';
import { StandaloneShell } from './layout/StandaloneShell';
import { invitationPaths, signedOutPaths } from './routePaths';

// Charts (recharts) are only on Reports: they load when a manager opens it, not with the front desk.
const ReportsScreen = lazy(() => import('./screens/ReportsScreen').then((m) => ({ default: m.ReportsScreen })));
function LazyReports() {
  return (
    <Suspense fallback={<PageSpinner />}>
      <ReportsScreen />
    </Suspense>
  );
}

function ShellRoutes({ user }: { user: User }) {
  const { organizations, isLoading, loadFailed } = useCurrentOrganization();

  if (isLoading) return <PageSpinner />;
  if (loadFailed) return <OrganizationsUnavailableScreen />;
  if (organizations.length === 0) {
    // A platform operator may belong to no organization: the console does not need one.
    return (
      <Switch>
        {user.isSuperAdmin && (
          <Route path="/super-admin">
            <StandaloneShell user={user} wide>
              <SuperAdminScreen user={user} />
            </StandaloneShell>
          </Route>
        )}
        <Route>
          <OnboardingScreen user={user} />
        </Route>
      </Switch>
    );
  }

  return (
    <Switch>
      {/* the demo payment provider stands in for Stripe's own page: no app shell around it */}
      <Route path="/checkout/demo/:id">{(params) => <DemoCheckoutScreen checkoutId={params.id} />}</Route>
      <Route>
        <AppShell user={user}>
          <Switch>
            <Route path="/" component={DashboardScreen} />
            <Route path="/dashboard" component={DashboardScreen} />
            <Route path="/mail-intake" component={MailIntakeScreen} />
            <Route path="/pending-pickups" component={PendingPickupsScreen} />
            <Route path="/recipients" component={RecipientsScreen} />
            <Route path="/history" component={HistoryScreen} />
            <Route path="/reports" component={LazyReports} />
            <Route path="/integrations" component={IntegrationsScreen} />
            <Route path="/settings" component={SettingsScreen} />
            <Route path="/settings-billing" component={BillingScreen} />
            <Route path="/subscription-management" component={BillingScreen} />
            <Route path="/checkout" component={CheckoutScreen} />
            <Route path="/super-admin">
              <SuperAdminScreen user={user} />
            </Route>
            <Route component={NotFoundScreen} />
          </Switch>
        </AppShell>
      </Route>
    </Switch>
  );
}

export function SignedInRoutes({ user }: { user: User }) {
  return (
    <Switch>
      {/* an invitation link opened while signed in offers to join; without a token these go to / */}
      {invitationPaths.map((path) => (
        <Route key={path} path={path}>
          <JoinInvitationScreen user={user} />
        </Route>
      ))}
      {/* the emailed link works signed in too */}
      <Route path="/verify-email" component={VerifyEmailScreen} />
      {signedOutPaths.map((path) => (
        <Route key={path} path={path}>
          <Redirect to="/" replace />
        </Route>
      ))}
      <Route>
        <OrganizationProvider>
          <ShellRoutes user={user} />
        </OrganizationProvider>
      </Route>
    </Switch>
  );
}
