import { z } from 'zod';
import { HistoryFilter, HistoryListQuery, HistoryStats, MailItem, TOTAL_COUNT_HEADER } from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { HistoryService } from './history.service';

export function historyRoutes(app: App, service: HistoryService) {
  const tags = ['History'];
  const preHandler = [app.authenticate, app.requireOrganization];

  app.get('/api/history', {
    schema: {
      tags,
      summary: 'Mail items in the History filter, newest first (the total is in X-Total-Count)',
      querystring: HistoryListQuery,
      response: { 200: z.array(MailItem), ...errorReplies(400, 401, 403) },
    },
    preHandler,
    handler: async (request, reply) => {
      const { json, total } = await service.listJson(callerOf(request), request.query);
      // Already JSON (built by the same DTO mapper as every other reply): sent as it is.
      return reply
        .header(TOTAL_COUNT_HEADER, String(total))
        .type('application/json; charset=utf-8')
        .send(json as never);
    },
  });

  app.get('/api/history/stats', {
    schema: {
      tags,
      summary: 'The History stat cards over the whole filter',
      querystring: HistoryFilter,
      response: { 200: HistoryStats, ...errorReplies(400, 401, 403) },
    },
    preHandler,
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
    preHandler,
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
