import type { MyOrganization } from '@contract';
import { lazy, Suspense, useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useSignedInUser } from '@/lib/resources/currentUser';
import { BillingView } from '@/features/billing/components/BillingView';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';
import { MailroomsPane } from '@/features/mailrooms/components/MailroomsPane';
import { EmailVerificationNotice } from '@/features/auth/components/EmailVerificationNotice';
import { AccountForm } from '@/features/settings/components/AccountForm';
import { AppearanceCard } from '@/features/settings/components/AppearanceCard';
import { LanguageCard } from '@/features/settings/components/LanguageCard';
import { ChangePasswordForm } from '@/features/settings/components/ChangePasswordForm';
import { TwoFactorCard } from '@/features/settings/components/two-factor/TwoFactorCard';
import { CustomizationPane } from '@/features/settings/components/CustomizationPane';
import { NotificationsPane } from '@/features/integrations/components/NotificationsPane';
import { OrganizationSettingsForm } from '@/features/organizations/components/OrganizationSettingsForm';
import { UserManagementPane } from '@/features/team/components/UserManagementPane';
import { DomainsPane } from '@/features/domains/components/DomainsPane';
import { initialTab, visibleTabs, type SettingsTab, type SettingsTabId } from '@/features/settings/settingsTabs';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/lib/i18n/catalogue';
import { shellMessages } from '@/lib/i18n/namespaces/shell';

/** Settings > Directory (decision 060): its own chunk, loaded when the tab is opened. */
const DirectoryPane = lazy(() => import('@/features/directory/components/DirectoryPane'));

// Single sign-on's settings load with their tab (decision 059).
const SsoConnectionCard = lazy(() =>
  import('@/features/sso/components/SsoConnectionCard').then((m) => ({ default: m.SsoConnectionCard })),
);
// The roster's screens load when the tab is opened (decision 061): most visits never need them.
const RosterPane = lazy(() => import('@/features/roster/components/RosterPane'));

function TabPanel({ tab, organization }: { tab: SettingsTab; organization: MyOrganization }) {
  const t = useT(shellMessages);
  const user = useSignedInUser();
  const isAdmin = organization.role === 'admin';
  switch (tab.id) {
    case 'organization':
      return <OrganizationSettingsForm organizationId={organization.id} />;
    case 'notifications':
      return <NotificationsPane organizationId={organization.id} isAdmin={isAdmin} />;
    case 'customization':
      return <CustomizationPane organizationId={organization.id} isAdmin={isAdmin} />;
    case 'mailrooms':
      return <MailroomsPane organizationId={organization.id} isAdmin={isAdmin} />;
    case 'account':
      return (
        <div className="space-y-6">
          <EmailVerificationNotice user={user} />
          <AccountForm user={user} />
          <AppearanceCard />
          <LanguageCard user={user} />
          <ChangePasswordForm />
          <TwoFactorCard />
        </div>
      );
    case 'users':
      return <UserManagementPane organization={organization} currentUserId={user.id} />;
    case 'sso':
      return (
        <div className="space-y-6">
          <DomainsPane organizationId={organization.id} />
          <Suspense fallback={null}>
            <SsoConnectionCard organizationId={organization.id} />
          </Suspense>
        </div>
      );
    case 'roster':
      return (
        <Suspense fallback={null}>
          <RosterPane organizationId={organization.id} />
        </Suspense>
      );
    case 'directory':
      return (
        <Suspense fallback={<Spinner className="size-5" label={t('settings.directoryLoading')} />}>
          <DirectoryPane organizationId={organization.id} />
        </Suspense>
      );
    case 'billing':
      return <BillingView organization={organization} />;
  }
}

function OrganizationSettings({ organization }: { organization: MyOrganization }) {
  const t = useT(shellMessages);
  const tabs = visibleTabs(organization.role);
  const [chosen, setChosen] = useState<SettingsTabId>(initialTab(organization.role));
  // a role change seen on a list refresh can hide the chosen tab: fall back to the role's first tab
  const active = tabs.some((tab) => tab.id === chosen) ? chosen : initialTab(organization.role);

  return (
    <Tabs
      value={active}
      onValueChange={(value) => setChosen(value as SettingsTabId)}
      orientation="vertical"
      className="flex flex-col gap-6 lg:flex-row"
    >
      <TabsList
        aria-label={t('settings.sections')}
        className="w-full flex-wrap justify-start lg:w-56 lg:shrink-0 lg:flex-col lg:flex-nowrap lg:items-stretch lg:self-start"
      >
        {tabs.map((tab) => (
          <TabsTrigger key={tab.id} value={tab.id} className="lg:justify-start">
            <tab.icon aria-hidden />
            {t(tab.label)}
          </TabsTrigger>
        ))}
      </TabsList>
      <div className="min-w-0 flex-1">
        {tabs.map((tab) => (
          <TabsContent key={tab.id} value={tab.id}>
            <TabPanel tab={tab} organization={organization} />
          </TabsContent>
        ))}
      </div>
    </Tabs>
  );
}

export function SettingsScreen() {
  const t = useT(shellMessages);
  return (
    <>
      <PageHeader title={t('settings.title')} description={t('settings.description')} />
      <RequireOrganization>
        {(organization) => <OrganizationSettings key={organization.id} organization={organization} />}
      </RequireOrganization>
    </>
  );
}
