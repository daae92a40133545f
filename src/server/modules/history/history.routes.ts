import { z } from 'zod';
import { HistoryFilter, HistoryListQuery, HistoryStats, MailItem } from '../../../contract';
import type { App } from '../../http';
import { errorReplies, sendListPage } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { HistoryService } from './history.service';

export function historyRoutes(app: App, service: HistoryService) {
  const tags = ['History'];
  const guards = [app.authenticate, app.requireOrganization];

  app.get('/api/history', {
    schema: {
      tags,
      summary: 'Mail items in the History filter, newest first (the total is in X-Total-Count)',
      querystring: HistoryListQuery,
      response: { 200: z.array(MailItem), ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request, reply) => {
      // Already JSON (built by the same DTO mapper as every other reply): sent as it is.
      return sendListPage(reply, await service.listPage(callerOf(request), request.query));
    },
  });

  app.get('/api/history/stats', {
    schema: {
      tags,
      summary: 'The History stat cards over the whole filter',
      querystring: HistoryFilter,
      response: { 200: HistoryStats, ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request) => service.stats(callerOf(request), request.query),
  });

  app.get('/api/history/export', {
    schema: {
      tags,
      summary:
        'The whole filter as CSV (streamed; Date and Delivered as YYYY-MM-DD HH:mm in the organization timezone)',
      querystring: HistoryFilter,
      produces: ['text/csv'],
      response: errorReplies(400, 401, 403),
    },
    preValidation: guards,
    handler: async (request, reply) => {
      const { fileName, body } = await service.export(callerOf(request), request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(body as never);
    },
  });
}
