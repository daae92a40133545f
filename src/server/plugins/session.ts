import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Caches } from '../caches';
import { unauthorized } from '../lib/errors';
import { hashToken } from '../lib/tokens';
import { addMs } from '../lib/time';
import { sessionsRepository } from '../modules/auth/sessions.repository';
import type { UserRow } from '../modules/auth/users.repository';

export const SESSION_COOKIE = 'pigeonhole.sid';

export type AuthContext = { user: UserRow; sessionId: string };

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a live session. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyReply {
    setSessionCookie: (token: string, expire: Date) => void;
    clearSessionCookie: () => void;
  }
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
export const sessionPlugin = fp(async (app, opts: { db: Db; config: Config; caches: Caches }) => {
  const { db, config, caches } = opts;
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.env === 'production',
  };

  app.decorateRequest('auth', null);
  app.decorateReply('setSessionCookie', function (this: FastifyReply, token: string, expire: Date) {
    this.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: expire });
  });
  app.decorateReply('clearSessionCookie', function (this: FastifyReply) {
    this.clearCookie(SESSION_COOKIE, cookieOptions);
  });

  app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) throw unauthorized();
    const sid = hashToken(token);
    const found = await caches.sessions.getOrLoad(sid, () => sessionsRepository.findLive(db, sid));
    if (!found || found.expire.getTime() <= Date.now()) throw unauthorized();
    request.auth = { user: found.user, sessionId: sid };
    if (found.expire.getTime() - Date.now() < config.sessionTtlMs / 2) {
      const expire = addMs(new Date(), config.sessionTtlMs);
      await sessionsRepository.extend(db, sid, expire);
      caches.sessions.set(sid, { ...found, expire });
      reply.setSessionCookie(token, expire);
    }
  });
});
