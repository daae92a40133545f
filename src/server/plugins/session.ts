import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError, forbidden, unauthorized } from '../lib/errors';
import { hashToken } from '../lib/tokens';
import { addMs } from '../lib/time';
import { sessionCookieOptions } from './session-cookie';
import type { SessionLookups, SessionUser } from '../context';
import type { Role } from '../../contract';
import { isOrganizationId, organizationHeaderOf } from './organization-header';

export const SESSION_COOKIE = 'pigeonhole.sid';
const API_KEY_HEADER = 'x-api-key';
export const INVALID_API_KEY = 'Invalid API key';
export const API_KEY_NOT_ALLOWED = 'API keys cannot be used for this call; sign in instead';

/**
 * Who is calling: a session's user, or an API key acting as its creator within its organization
 * only (`apiKey` set, `sessionId` empty).
 */
export type AuthContext = {
  user: SessionUser;
  sessionId: string;
  apiKey?: { id: string; organizationId: string };
  /**
   * The caller's role in the organization the request names (null: not a member), when it was
   * read with the session in one statement; requireOrganization then needs no query of its own.
   */
  roleIn?: { organizationId: string; role: Role | null };
  /** The data version of the organization the request names, read with the session or key (decision 037). */
  dataVersion?: { organizationId: string; version: string };
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /**
     * preValidation (before any input is checked): 401 unless the request carries a live session.
     * Routes that accept large bodies also run it onRequest, so nobody signed out gets a body read.
     */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyReply {
    setSessionCookie: (token: string, expire: Date) => void;
    clearSessionCookie: () => void;
  }
  interface FastifyContextConfig {
    /** Set on every route behind `requireOrganization`: the calls an API key may make. */
    apiKeys?: boolean;
    /** The 413 message of a route whose body is mostly one field (a photo), instead of the generic one. */
    bodyTooLargeMessage?: string;
  }
}

/** The API key a request presents: `Authorization: Bearer …` or `x-api-key: …`. */
function presentedApiKey(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (m) return m[1];
  }
  const raw = request.headers[API_KEY_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value?.trim() || undefined;
}

/** Signed-in request's context; only valid behind `authenticate`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/**
 * Server-side sessions in the `sessions` table. The cookie holds a random token; the table holds
 * its hash. Sessions slide: a request in the second half of the lifetime renews it.
 */
export const sessionPlugin = fp(async (app, opts: { config: Config; lookups: SessionLookups }) => {
  const { config, lookups } = opts;
  const cookieOptions = sessionCookieOptions(config);

  app.decorateRequest('auth', null);
  app.decorateReply('setSessionCookie', function (this: FastifyReply, token: string, expire: Date) {
    this.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: expire });
  });
  app.decorateReply('clearSessionCookie', function (this: FastifyReply) {
    this.clearCookie(SESSION_COOKIE, cookieOptions);
  });

  // API keys act on an organization's data only: the routes behind requireOrganization (which the
  // organization plugin decorates before any route is added). Account calls refuse them.
  app.addHook('onRoute', (route) => {
    const hooks = [route.preValidation ?? []].flat();
    if (app.hasDecorator('requireOrganization') && hooks.includes(app.requireOrganization)) {
      route.config = { ...(route.config ?? {}), apiKeys: true };
    }
  });

  app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
    // Routes with large bodies authenticate before reading them (onRequest), then again in preValidation.
    if (request.auth) return;
    const key = presentedApiKey(request);
    if (key !== undefined) {
      const principal = await lookups.authenticateApiKey(key);
      if (!principal) throw new AppError(401, INVALID_API_KEY, 'invalid_api_key');
      if (!request.routeOptions.config.apiKeys) throw forbidden(API_KEY_NOT_ALLOWED, 'api_key_not_allowed');
      request.auth = {
        user: principal.user,
        sessionId: '',
        apiKey: { id: principal.apiKeyId, organizationId: principal.organizationId },
        dataVersion: { organizationId: principal.organizationId, version: principal.dataVersion },
      };
      return;
    }
    const token = request.cookies[SESSION_COOKIE];
    if (!token) throw unauthorized();
    const sid = hashToken(token);
    // Read on every request, never cached (decision 037): a sign-out, a reset or a removal on any
    // instance refuses the next request everywhere. The caller's role in the organization the
    // request names and that organization's data version come in the same statement.
    const named = organizationHeaderOf(request);
    const organizationId = isOrganizationId(named) ? named : undefined;
    const row = await lookups.findLiveSession(sid, organizationId);
    if (!row || row.expire.getTime() <= Date.now()) throw unauthorized();
    request.auth = {
      user: row.user,
      sessionId: sid,
      ...(organizationId
        ? {
            roleIn: { organizationId, role: row.role },
            ...(row.dataVersion !== null ? { dataVersion: { organizationId, version: row.dataVersion } } : {}),
          }
        : {}),
    };
    if (row.expire.getTime() - Date.now() < config.sessionTtlMs / 2) {
      const expire = addMs(new Date(), config.sessionTtlMs);
      await lookups.extendSession(sid, expire);
      reply.setSessionCookie(token, expire);
    }
  });
});
