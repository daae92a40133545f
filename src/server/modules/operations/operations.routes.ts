import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ErrorReply, HealthReply, ReadyReply } from '../../../contract';
import type { App } from '../../http';
import { notFound } from '../../lib/errors';
import { bearerMatches, type Metrics } from './metrics';
import { publicReadiness, type OperationsService } from './operations.service';

/** What a load balancer is told to wait before asking an unready instance again. */
const READY_RETRY_AFTER_SECONDS = 5;

/**
 * Counts every answered request (the 404s of unknown URLs under one route label). One onResponse
 * hook, added before the routes so it applies to all of them; nothing when metrics are off.
 */
export function instrumentRequests(app: FastifyInstance, metrics: Metrics | undefined) {
  if (!metrics) return;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

export function operationsRoutes(
  app: App,
  operations: OperationsService,
  metrics: { metrics: Metrics; token: string } | undefined,
) {
  app.get('/api/health', {
    schema: {
      tags: ['Operations'],
      summary: 'Liveness: the process answers (the database is not asked)',
      response: { 200: HealthReply },
    },
    handler: async () => operations.health(),
  });

  app.get('/api/ready', {
    schema: {
      tags: ['Operations'],
      summary: 'Readiness: database, notification queue, notification worker and change feed',
      description:
        `503 with Retry-After: ${READY_RETRY_AFTER_SECONDS} and the failing checks while any check fails. ` +
        "Each check's state only: what was seen goes to the server's log.",
      response: { 200: ReadyReply, 503: ReadyReply },
    },
    handler: async (request, reply) => {
      const result = await operations.ready();
      if (result.status === 'ready') return reply.send(publicReadiness(result));
      // The why (a driver's error text names hosts, ports, users) is the operator's, in the log;
      // the reply may reach anyone who can reach the instance (decision 052).
      request.log.warn({ checks: result.checks, failed: result.failed }, 'not ready');
      return reply.status(503).header('retry-after', String(READY_RETRY_AFTER_SECONDS)).send(publicReadiness(result));
    },
  });

  app.get('/metrics', {
    schema: {
      tags: ['Operations'],
      summary: 'Prometheus metrics (text format); needs `Authorization: Bearer <METRICS_TOKEN>`',
      description: 'Answers 404 when METRICS_TOKEN is not set (the metrics are not exposed).',
      security: [],
      // The text is sent as it is: Fastify serializes by the schema only replies typed as JSON.
      response: { 200: z.string(), 401: ErrorReply, 404: ErrorReply },
    },
    handler: async (request, reply) => {
      // Unset: as if there were no such route, so nothing tells a prober metrics could exist.
      if (!metrics) throw notFound(`Route GET ${request.url.split('?')[0]} not found`);
      if (!bearerMatches(request.headers.authorization, metrics.token)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ message: 'A bearer token (METRICS_TOKEN) is required', code: 'unauthenticated' });
      }
      const { contentType, text } = await metrics.metrics.render();
      return reply.type(contentType).header('cache-control', 'no-store').send(text);
    },
  });
}
