import type { Analytics } from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { analyticsRepository } from './analytics.repository';

type Range = Analytics['range'];

export function createAnalyticsService({ reads }: Deps) {
  return {
    /** GET /api/analytics: everything the reports screen draws, aggregated in SQL. */
    async analytics(caller: OrgCaller, range: Range): Promise<Analytics> {
      // From the replica when it has replayed what this request knows of (decision 038).
      const r = await reads.run(caller, (db) =>
        analyticsRepository.analytics(db, caller.organizationId, Number(range)),
      );
      return {
        range,
        perDay: r.per_day,
        byCourier: r.by_courier,
        byType: r.by_type,
        pickupHours: { average: r.average_hours, p90: r.p90_hours },
        deliveryRate: r.total === 0 ? 0 : Math.round((r.delivered / r.total) * 100),
        overdue: r.overdue,
        busiestHours: r.busiest_hours,
        topRecipients: r.top_recipients,
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
