import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CreateScimTokenBody,
  CreatedScimToken,
  SCIM_BASE_PATH,
  SCIM_REQUEST_RETENTION_DAYS,
  ScimRequest,
  ScimRequestsQuery,
  ScimToken,
  ScimTokenParams,
  TOTAL_COUNT_HEADER,
} from '../../../contract';
import { withTenants } from '../../db/tenant-scope';
import type { App } from '../../http';
import { errorReplies, sendItemsPage } from '../../http';
import { AppError } from '../../lib/errors';
import { isDatabaseUnavailable } from '../../lib/pg-errors';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../plugins/json-body';
import { callerOf } from '../../plugins/organization';
import { resourceTypes, schemas, serviceProviderConfig } from './scim.discovery';
import { SCHEMA, SCIM_CONTENT_TYPE, ScimError, scimErrorBody } from './scim.protocol';
import type { ListQuery, ScimService } from './scim.service';
import type { ScimCaller, ScimTokensService } from './scim-tokens.service';

/** Settings → Directory: the organization's SCIM tokens, admins only. HTTP only. */
export function scimTokenRoutes(app: App, tokens: ScimTokensService) {
  const tags = ['Directory (SCIM)'];
  const admin = [app.authenticate, app.requireOrganization, app.requireAdmin];

  app.get('/api/scim/tokens', {
    schema: {
      tags,
      summary: "The organization's SCIM bearer tokens, newest first, revoked ones too (admin)",
      response: { 200: z.array(ScimToken), ...errorReplies(400, 401, 403) },
    },
    preValidation: admin,
    handler: async (request) => tokens.list(callerOf(request)),
  });

  app.post('/api/scim/tokens', {
    schema: {
      tags,
      summary: `Create a SCIM bearer token for ${SCIM_BASE_PATH} (admin); the token is answered this once`,
      body: CreateScimTokenBody,
      response: { 201: CreatedScimToken, ...errorReplies(400, 401, 403) },
    },
    preValidation: admin,
    handler: async (request, reply) =>
      reply.status(201).send(await tokens.create(callerOf(request), request.body.name)),
  });

  app.get('/api/scim/requests', {
    schema: {
      tags,
      summary: `The organization's SCIM calls, newest first, kept ${SCIM_REQUEST_RETENTION_DAYS} days (admin); the total is in ${TOTAL_COUNT_HEADER}`,
      querystring: ScimRequestsQuery,
      response: { 200: z.array(ScimRequest), ...errorReplies(400, 401, 403) },
    },
    preValidation: admin,
    handler: async (request, reply) => sendItemsPage(reply, await tokens.requests(callerOf(request), request.query)),
  });

  app.post('/api/scim/tokens/:id/revoke', {
    schema: {
      tags,
      summary: 'Revoke a SCIM token (admin): its next request answers 401; it stays listed',
      params: ScimTokenParams,
      response: { 200: ScimToken, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request) => tokens.revoke(callerOf(request), request.params.id),
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    scimCaller: ScimCaller | null;
  }
}

const send = (reply: FastifyReply, status: number, body?: unknown) =>
  body === undefined
    ? reply.status(status).send()
    : reply.status(status).type(SCIM_CONTENT_TYPE).send(JSON.stringify(body));

/** `userName eq "ana@…"` → `userName eq`: a filter's value is personal data and is not kept. */
export function filterShape(filter: unknown): string | null {
  if (typeof filter !== 'string' || filter.trim() === '') return null;
  const m = /^\s*\(?\s*([A-Za-z][\w.:$-]*(?:\[[^\]]*\])?(?:\.[\w$]+)?)\s+(eq|ne|co|sw|ew|gt|ge|lt|le|pr)\b/i.exec(
    filter,
  );
  if (!m) return '(unreadable)';
  const attribute = m[1]!.replace(/\[[^\]]*\]/, '[…]');
  return `${attribute} ${m[2]!.toLowerCase()}`.slice(0, 64);
}

const ID_LIKE = /^[\w-]{1,64}$/;

/** The request log's row: path without query, the filter's shape, the User or Group named or created. */
function requestLogRow(request: FastifyRequest, reply: FastifyReply) {
  let path = request.url.split('?')[0]!.slice(SCIM_BASE_PATH.length) || '/';
  const segment = /^\/(Users|Groups)\/([^/]+)$/.exec(path);
  // An id is kept as sent (ours are UUIDs); anything else in its place (a userName or an email a
  // client put in the path) is personal data and is not.
  const named = segment && ID_LIKE.test(segment[2]!) ? segment[2] : undefined;
  if (segment && !named) path = `/${segment[1]}/…`;
  const location = reply.getHeader('location');
  const created = typeof location === 'string' ? /\/(?:Users|Groups)\/([\w-]+)$/.exec(location)?.[1] : undefined;
  const resourceId = (named ?? created ?? null)?.slice(0, 64) ?? null;
  return {
    method: request.method.slice(0, 8),
    path: path.slice(0, 200),
    filter: filterShape((request.query as { filter?: unknown } | undefined)?.filter),
    status: reply.statusCode,
    resourceId,
    durationMs: Math.max(0, Math.round(reply.elapsedTime)),
  };
}

/**
 * SCIM 2.0 at /scim/v2 (decision 060), in a scope of its own: SCIM's media type, SCIM's error
 * JSON, and the organization's bearer token instead of a session. Every request is authenticated
 * (a missing, unknown or revoked token: 401), counted against the organization's rate limit,
 * then runs scoped to that organization (row-level security). Hidden from /api/docs: the protocol
 * is RFC 7644's, described by ServiceProviderConfig, ResourceTypes and Schemas.
 */
export function scimProtocolRoutes(app: App, tokens: ScimTokensService, scim: ScimService, baseUrl: () => string) {
  app.register(
    async (scope: FastifyInstance) => {
      scope.decorateRequest('scimCaller', null);
      scope.addContentTypeParser('application/scim+json', { parseAs: 'string' }, (_request, body, done) => {
        const text = body as string;
        if (jsonDepthExceeds(text, MAX_JSON_DEPTH))
          return done(new ScimError(400, 'The body is nested too deeply', 'invalidSyntax'));
        if (text.trim() === '') return done(null, undefined);
        try {
          done(null, JSON.parse(text));
        } catch {
          done(new ScimError(400, 'The body is not valid JSON', 'invalidSyntax'));
        }
      });

      scope.addHook('onRequest', async (request: FastifyRequest) => {
        const caller = await tokens.authenticate(request.headers.authorization, {
          ip: request.ip,
          method: request.method,
          path: request.url.split('?')[0]!.slice(0, 200),
        });
        // Set before the rate limit: a refused 429 is a call of this organization's token, recorded too.
        request.scimCaller = caller;
        await tokens.throttle(caller);
      });
      // Every authenticated call, reads too, one row after its reply (decision 060); never fails the call.
      scope.addHook('onResponse', async (request, reply) => {
        if (!request.scimCaller) return;
        await tokens.recordRequest(request.scimCaller, requestLogRow(request, reply));
      });
      // The handler's statements run scoped to the token's organization: row-level security is the second wall.
      scope.addHook('preHandler', (request, _reply, done) => {
        if (request.scimCaller) withTenants([request.scimCaller.organizationId], done);
        else done();
      });

      scope.setErrorHandler((error: FastifyError | AppError, request, reply) => {
        if (error instanceof AppError) {
          const retry = (error as AppError & { retryAfterSeconds?: number }).retryAfterSeconds;
          if (retry) reply.header('Retry-After', String(retry));
          if (error.statusCode === 401) reply.header('WWW-Authenticate', 'Bearer realm="SCIM"');
          const scimType = error instanceof ScimError ? error.scimType : undefined;
          return send(reply, error.statusCode, scimErrorBody(error.statusCode, error.message, scimType));
        }
        const status = error.statusCode ?? 500;
        if (status === 413) return send(reply, 413, scimErrorBody(413, 'The body is too large'));
        if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && error instanceof SyntaxError)) {
          return send(reply, 400, scimErrorBody(400, 'The body is not valid JSON', 'invalidSyntax'));
        }
        if (status >= 400 && status < 500) return send(reply, status, scimErrorBody(status, error.message));
        if (isDatabaseUnavailable(error)) {
          reply.header('Retry-After', '5');
          return send(reply, 503, scimErrorBody(503, 'The database is unavailable for a moment. Please try again.'));
        }
        request.log.error({ err: error }, 'unhandled SCIM error');
        return send(reply, 500, scimErrorBody(500, 'Something went wrong on our side. Please try again.'));
      });
      scope.setNotFoundHandler((request, reply) =>
        send(reply, 404, scimErrorBody(404, `No SCIM endpoint ${request.method} ${request.url.split('?')[0]}`)),
      );

      const config = { bearerOnly: true };
      const schema = { hide: true };
      const caller = (request: FastifyRequest) => request.scimCaller!;
      type IdRequest = FastifyRequest<{ Params: { id: string }; Querystring: ListQuery }>;
      type ListRequest = FastifyRequest<{ Querystring: ListQuery }>;

      scope.get('/ServiceProviderConfig', { config, schema }, async (_request, reply) =>
        send(reply, 200, serviceProviderConfig(baseUrl())),
      );
      scope.get('/ResourceTypes', { config, schema }, async (_request, reply) => {
        const all = resourceTypes(baseUrl());
        return send(reply, 200, {
          schemas: [SCHEMA.list],
          totalResults: all.length,
          startIndex: 1,
          itemsPerPage: all.length,
          Resources: all,
        });
      });
      scope.get('/ResourceTypes/:id', { config, schema }, async (request: IdRequest, reply) => {
        const found = resourceTypes(baseUrl()).find((r) => r.id === request.params.id);
        if (!found) throw new ScimError(404, `Resource type ${request.params.id.slice(0, 64)} not found`);
        return send(reply, 200, found);
      });
      scope.get('/Schemas', { config, schema }, async (_request, reply) => {
        const all = schemas(baseUrl());
        return send(reply, 200, {
          schemas: [SCHEMA.list],
          totalResults: all.length,
          startIndex: 1,
          itemsPerPage: all.length,
          Resources: all,
        });
      });
      scope.get('/Schemas/:id', { config, schema }, async (request: IdRequest, reply) => {
        const found = schemas(baseUrl()).find((s) => s.id === request.params.id);
        if (!found) throw new ScimError(404, `Schema ${request.params.id.slice(0, 100)} not found`);
        return send(reply, 200, found);
      });

      scope.get('/Users', { config, schema }, async (request: ListRequest, reply) =>
        send(reply, 200, await scim.listUsers(caller(request), request.query)),
      );
      scope.post('/Users', { config, schema }, async (request, reply) => {
        const user = await scim.createUser(caller(request), request.body);
        return send(reply.header('Location', user.meta.location), 201, user);
      });
      scope.get('/Users/:id', { config, schema }, async (request: IdRequest, reply) =>
        send(reply, 200, await scim.getUser(caller(request), request.params.id)),
      );
      scope.put('/Users/:id', { config, schema }, async (request: IdRequest, reply) =>
        send(reply, 200, await scim.replaceUser(caller(request), request.params.id, request.body)),
      );
      scope.patch('/Users/:id', { config, schema }, async (request: IdRequest, reply) =>
        send(reply, 200, await scim.patchUser(caller(request), request.params.id, request.body)),
      );
      scope.delete('/Users/:id', { config, schema }, async (request: IdRequest, reply) => {
        await scim.deleteUser(caller(request), request.params.id);
        return send(reply, 204);
      });

      scope.get('/Groups', { config, schema }, async (request: ListRequest, reply) =>
        send(reply, 200, await scim.listGroups(caller(request), request.query)),
      );
      scope.post('/Groups', { config, schema }, async (request, reply) => {
        const group = await scim.createGroup(caller(request), request.body);
        return send(reply.header('Location', group.meta.location), 201, group);
      });
      scope.get('/Groups/:id', { config, schema }, async (request: IdRequest, reply) =>
        send(reply, 200, await scim.getGroup(caller(request), request.params.id, request.query)),
      );
      scope.put('/Groups/:id', { config, schema }, async (request: IdRequest, reply) =>
        send(reply, 200, await scim.replaceGroup(caller(request), request.params.id, request.body)),
      );
      scope.patch('/Groups/:id', { config, schema }, async (request: IdRequest, reply) =>
        send(reply, 200, await scim.patchGroup(caller(request), request.params.id, request.body)),
      );
      scope.delete('/Groups/:id', { config, schema }, async (request: IdRequest, reply) => {
        await scim.deleteGroup(caller(request), request.params.id);
        return send(reply, 204);
      });
    },
    { prefix: SCIM_BASE_PATH },
  );
}
