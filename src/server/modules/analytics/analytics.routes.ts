import { Analytics, AnalyticsQuery } from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { AnalyticsService } from './analytics.service';

export function analyticsRoutes(app: App, service: AnalyticsService) {
  app.get('/api/analytics', {
    schema: {
      tags: ['Analytics'],
      summary: 'The reports of the selected organization for a range of days',
      querystring: AnalyticsQuery,
      response: { 200: Analytics, ...errorReplies(400, 401, 403) },
    },
    preValidation: [app.authenticate, app.requireOrganization],
    handler: async (request) => service.analytics(callerOf(request), request.query.range),
  });
}
