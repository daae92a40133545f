import type { DashboardStats, DashboardTrends, RecentActivityItem } from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { dashboardRepository } from './dashboard.repository';

export function createDashboardService({ db, caches }: Deps) {
  async function loadStats(organizationId: string): Promise<DashboardStats> {
    const s = await dashboardRepository.stats(db, organizationId);
    return {
      todaysMail: s.todays,
      pendingPickups: s.pending,
      activeRecipients: s.active_recipients,
      deliveryRate: s.total === 0 ? 0 : Math.round((s.delivered / s.total) * 100),
    };
  }

  async function loadTrends(organizationId: string): Promise<DashboardTrends> {
    const t = await dashboardRepository.trends(db, organizationId);
    return {
      todayVsYesterdayPercent: t.yesterday === 0 ? null : Math.round(((t.today - t.yesterday) / t.yesterday) * 100),
      overdue: t.overdue,
      newRecipientsThisWeek: t.new_recipients,
      // A window without items has a rate of 0, as the cards show it.
      deliveryRateChange: Math.round((t.rate_now ?? 0) - (t.rate_before ?? 0)),
    };
  }

  return {
    /** Cached at the organization's data version: a desk's dashboards ask far more often than items arrive. */
    async stats(caller: OrgCaller): Promise<DashboardStats> {
      return caches.dashboardStats.getOrLoad(caller.organizationId, caller.dataVersion, () =>
        loadStats(caller.organizationId),
      );
    },

    async recentActivity(caller: OrgCaller, limit: number): Promise<RecentActivityItem[]> {
      const rows = await dashboardRepository.recent(db, caller.organizationId, limit);
      return rows.map((r) => ({
        id: r.id,
        type: r.type,
        status: r.status,
        sender: r.sender,
        arrivedAt: new Date(r.arrived_at).toISOString(),
        recipient:
          r.first_name !== null && r.last_name !== null ? { firstName: r.first_name, lastName: r.last_name } : null,
      }));
    },

    /**
     * GET /api/dashboard/trends: the figures behind the texts under the dashboard cards. Cached
     * like the stats: it counts the items of the last 60 days.
     */
    async trends(caller: OrgCaller): Promise<DashboardTrends> {
      return caches.dashboardTrends.getOrLoad(caller.organizationId, caller.dataVersion, () =>
        loadTrends(caller.organizationId),
      );
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
