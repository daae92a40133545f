import { HealthReply } from '../../../contract';
import type { App } from '../../http';
import type { HealthService } from './health.service';

export function healthRoutes(app: App, health: HealthService) {
  app.get('/api/health', {
    schema: {
      tags: ['Operations'],
      summary: 'Liveness and database reachability',
      response: { 200: HealthReply, 503: HealthReply },
    },
    handler: async (_request, reply) => {
      const result = await health.check();
      return reply.status(result.status === 'ok' ? 200 : 503).send(result);
    },
  });
}
