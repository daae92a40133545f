import type { Analytics } from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { analyticsRepository } from './analytics.repository';

type Range = Analytics['range'];

export function createAnalyticsService({ db }: Deps) {
  return {
    /** GET /api/analytics: everything the reports screen draws, aggregated in SQL. */
    async analytics(caller: OrgCaller, range: Range): Promise<Analytics> {
      const r = await analyticsRepository.analytics(db, caller.organizationId, Number(range));
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
