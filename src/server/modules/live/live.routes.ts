import { PassThrough } from 'node:stream';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { ErrorReply, LIVE_EVENTS_PATH, ORGANIZATION_HEADER, ORGANIZATION_NOT_FOUND } from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { AppError, notFound } from '../../lib/errors';
import { isUuid } from '../../db/tenant-scope';
import { authOf } from '../../plugins/session';
import type { LiveHub } from './live.hub';

/** How long a browser waits before reconnecting a dropped stream (the `retry:` field). */
const RECONNECT_MS = 2_000;

/** An instance holding its most streams (LIVE_STREAMS_PER_INSTANCE, decision 051): try again after this. */
const STREAMS_FULL_RETRY_AFTER_SECONDS = 30;
const STREAMS_FULL = 'This server has no room for another live connection. Try again in a moment.';

const Query = z.object({
  organizationId: z
    .uuid()
    .describe('The organization whose changes to receive (an EventSource cannot send x-organization-id)'),
});

/** The query's organization id, when it is one (else undefined). */
function organizationOf(request: FastifyRequest): string | undefined {
  const value = (request.query as { organizationId?: unknown } | undefined)?.organizationId;
  return typeof value === 'string' && isUuid(value) ? value : undefined;
}

/** One server-sent event, or a comment line when `event` is null. */
function eventText(event: string | null, data?: unknown, id?: string): string {
  if (event === null) return ':\n\n';
  return `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data ?? {})}\n\n`;
}

export function liveRoutes(app: App, hub: LiveHub) {
  app.get(LIVE_EVENTS_PATH, {
    schema: {
      tags: ['Live desk'],
      summary: "The organization's changes as server-sent events",
      description:
        'text/event-stream for a signed-in member of the organization named by `organizationId` ' +
        '(a session only; no API key). Events: `ready`, `change` ({kind: mail-items | recipients | ' +
        'storage | members, ids?}), `resync` (refetch what you show: sent after a reconnect, which ' +
        'the browser signals with Last-Event-ID, and whenever the server may have missed changes), ' +
        '`ended` ({reason: signed-out | removed | role-changed | shutdown | replaced}). Nothing is ' +
        'replayed: a reconnecting client refetches. Another organization (or none) answers 404. ' +
        'A session and a person hold a bounded number of streams: a new one ends the oldest ' +
        '(`replaced`); an instance holding its most answers 503 with Retry-After.',
      querystring: Query,
      response: { ...errorReplies(400, 401, 403, 404), 503: ErrorReply },
    },
    // Never compressed: a compressor holds the events back until its buffer fills.
    compress: false,
    // The organization comes from the query, and is checked exactly as the header is: the one
    // statement that reads the session reads the caller's role in it (decision 037).
    onRequest: async (request) => {
      const organizationId = organizationOf(request);
      if (organizationId) request.headers[ORGANIZATION_HEADER] = organizationId;
      else delete request.headers[ORGANIZATION_HEADER];
    },
    preValidation: [
      app.authenticate,
      async (request) => {
        const organizationId = organizationOf(request);
        // Who before what (decision 003): a malformed id is refused after the session is checked.
        if (!organizationId) {
          throw new AppError(400, ORGANIZATION_NOT_FOUND, 'validation_error', [
            { path: 'organizationId', message: ORGANIZATION_NOT_FOUND },
          ]);
        }
        const { roleIn } = authOf(request);
        // Like an organization named in a path: not one of the caller's answers 404, so ids cannot be probed.
        if (roleIn?.organizationId !== organizationId || !roleIn.role) throw notFound(ORGANIZATION_NOT_FOUND);
      },
    ],
    handler: async (request, reply) => {
      const auth = authOf(request);
      // Set by the check above.
      const { organizationId, role } = auth.roleIn!;
      // Before the response starts: a full instance answers 503 (another instance, or later, has room).
      if (!hub.hasRoomFor(auth.user.id, auth.sessionId)) {
        throw Object.assign(new AppError(503, STREAMS_FULL, 'live_streams_full'), {
          retryAfterSeconds: STREAMS_FULL_RETRY_AFTER_SECONDS,
        });
      }
      const body = new PassThrough();
      // The retry delay first; the hub's `ready` follows.
      body.write(`retry: ${RECONNECT_MS}\n\n`);
      const forget = hub.open(
        {
          organizationId,
          userId: auth.user.id,
          sessionId: auth.sessionId,
          role: role!,
          write: (event, data, id) => {
            if (!body.writableEnded) body.write(eventText(event, data, id));
          },
          end: () => body.end(),
        },
        request.headers['last-event-id'] !== undefined,
      );
      // The response's close, not the request's: a GET's request may close as soon as it is read.
      reply.raw.once('close', () => {
        forget();
        body.end();
      });
      return (
        reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-cache, no-transform')
          // nginx passes the events on as they come (deploy/nginx.conf says so for this path too).
          .header('x-accel-buffering', 'no')
          .send(body as never)
      );
    },
  });
}
