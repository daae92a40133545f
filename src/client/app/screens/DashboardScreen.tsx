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

function OrganizationDashboard({ organization }: { organization: MyOrganization }) {
  const stats = useDashboardStats(organization.id);
  const activity = useRecentActivity(organization.id);
  useErrorToast(stats.error, 'Failed to fetch stats');
  useErrorToast(activity.error, 'Failed to fetch recent activity');

  return (
    <div className="space-y-6">
      <StatCards data={stats.data} isLoading={stats.isPending} />
      {organization.role === 'admin' && <IntegrationsHint organizationId={organization.id} />}
      <Card>
        <CardHeader>
          <CardTitle>Recent Mail Activity</CardTitle>
          <CardDescription>The latest items logged at {organization.name}.</CardDescription>
        </CardHeader>
        <CardContent className="pt-2 sm:pt-2">
          <RecentActivityList items={activity.data} isLoading={activity.isPending} />
        </CardContent>
      </Card>
    </div>
  );
}

export function DashboardScreen() {
  return (
    <>
      <PageHeader title="Dashboard" description="An overview of today's mail and pickups." />
      <RequireOrganization>
        {(organization) => <OrganizationDashboard organization={organization} />}
      </RequireOrganization>
    </>
  );
}
