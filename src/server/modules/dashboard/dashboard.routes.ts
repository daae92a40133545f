import { z } from 'zod';
import { DashboardStats, DashboardTrends, RecentActivityItem, RecentActivityQuery } from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { DashboardService } from './dashboard.service';

export function dashboardRoutes(app: App, dashboard: DashboardService) {
  const tags = ['Dashboard'];
  const guards = [app.authenticate, app.requireOrganization];

  app.get('/api/dashboard/stats', {
    schema: {
      tags,
      summary: 'The four stat cards of the selected organization',
      response: { 200: DashboardStats, ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request) => dashboard.stats(callerOf(request)),
  });

  app.get('/api/dashboard/recent-activity', {
    schema: {
      tags,
      summary: 'The latest mail items',
      querystring: RecentActivityQuery,
      response: { 200: z.array(RecentActivityItem), ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request) => dashboard.recentActivity(callerOf(request), request.query.limit),
  });

  app.get('/api/dashboard/trends', {
    schema: {
      tags,
      summary: 'The computed trend texts under the stat cards',
      response: { 200: DashboardTrends, ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request) => dashboard.trends(callerOf(request)),
  });
}
