import { sql } from 'drizzle-orm';
import { HealthReply } from '../../../contract';
import type { Db } from '../../db/client';
import type { App } from '../../http';

export function healthRoutes(app: App, db: Db) {
  app.get('/api/health', {
    schema: {
      tags: ['Operations'],
      summary: 'Liveness and database reachability',
      response: { 200: HealthReply, 503: HealthReply },
    },
    handler: async (_request, reply) => {
      const uptimeSeconds = Math.round(process.uptime());
      try {
        await db.execute(sql`select 1`);
        return { status: 'ok' as const, database: 'ok' as const, uptimeSeconds };
      } catch {
        return reply.status(503).send({ status: 'unavailable', database: 'unreachable', uptimeSeconds });
      }
    },
  });
}
