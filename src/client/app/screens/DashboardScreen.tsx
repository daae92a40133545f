import type { MyOrganization } from '@contract';
import { PageHeader } from '@/components/PageHeader';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useDashboardStats } from '@/features/dashboard/api/dashboardStats';
import { useRecentActivity } from '@/features/dashboard/api/recentActivity';
import { RecentActivityList } from '@/features/dashboard/components/RecentActivityList';
import { StatCards } from '@/features/dashboard/components/StatCards';
import { IntegrationsHint } from '@/features/integrations/components/IntegrationsHint';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';
import { useErrorToast } from '@/lib/useErrorToast';
import { useT } from '@/lib/i18n/catalogue';
import { dashboardMessages } from '@/lib/i18n/namespaces/dashboard';

function OrganizationDashboard({ organization }: { organization: MyOrganization }) {
  const t = useT(dashboardMessages);
  const stats = useDashboardStats(organization.id);
  const activity = useRecentActivity(organization.id);
  useErrorToast(stats.error, t('statsFailed'));
  useErrorToast(activity.error, t('activityFailed'));

  return (
    <div className="space-y-6">
      <StatCards data={stats.data} isLoading={stats.isPending} />
      {organization.role === 'admin' && <IntegrationsHint organizationId={organization.id} />}
      <Card>
        <CardHeader>
          <CardTitle>{t('recent.title')}</CardTitle>
          <CardDescription>{t('recent.description', { organization: organization.name })}</CardDescription>
        </CardHeader>
        <CardContent className="pt-2 sm:pt-2">
          <RecentActivityList items={activity.data} isLoading={activity.isPending} />
        </CardContent>
      </Card>
    </div>
  );
}

export function DashboardScreen() {
  const t = useT(dashboardMessages);
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <RequireOrganization>
        {(organization) => <OrganizationDashboard organization={organization} />}
      </RequireOrganization>
    </>
  );
}
