import type { DashboardStats, RecentActivityItem } from '../../../contract';
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

  return {
    /** Cached for CACHE_TTL_MS: a desk's dashboards ask far more often than items arrive. */
    async stats(caller: OrgCaller): Promise<DashboardStats> {
      return caches.dashboardStats.getOrLoad(caller.organizationId, () => loadStats(caller.organizationId));
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
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
