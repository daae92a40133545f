import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { unauthorized } from '../lib/errors';
import { hashToken } from '../lib/tokens';
import { addMs } from '../lib/time';
import { sessionCookieOptions } from './session-cookie';
import type { RecipientCaller } from '../context';
import { withTenants } from '../db/tenant-scope';

/** Its own cookie: a staff session never opens the recipient's page, nor this cookie a staff call. */
export const RECIPIENT_SESSION_COOKIE = 'pigeonhole.portal';
export const RECIPIENT_SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const RECIPIENT_SIGNED_OUT = 'Your session has ended. Ask for a new link to open your page.';

/** What the plugin asks of the portal module, handed to it by app.ts: a plugin never imports a module. */
export type RecipientSessionLookups = {
  /** The live session of an active recipient (a deactivated or erased one's sessions stop working). */
  findLive: (sid: string) => Promise<{ caller: RecipientCaller; expire: Date } | undefined>;
  extend: (sid: string, expire: Date) => Promise<void>;
  /**
   * Counts one write of the recipient's page (any call but a read): throws 429 with Retry-After
   * past the recipient's or the organization's rate (decision 052).
   */
  throttleWrite: (caller: RecipientCaller) => Promise<void>;
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The recipient a portal request acts as; only set behind `authenticateRecipient`. */
    recipientCaller: RecipientCaller;
    /** The hash of the recipient session's token, behind `authenticateRecipient`. */
    recipientSessionId: string | null;
  }
  interface FastifyInstance {
    /** preValidation of every /api/portal/* call but the sign-in ones: 401 without a live recipient session. */
    authenticateRecipient: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** The recipient the request's portal cookie belongs to, or undefined (no 401): for the sign-in call. */
    peekRecipient: (request: FastifyRequest) => Promise<RecipientCaller | undefined>;
  }
  interface FastifyContextConfig {
    /** A portal write that is never refused for its rate: signing out. */
    portalUnthrottled?: boolean;
  }
  interface FastifyReply {
    setRecipientSessionCookie: (token: string, expire: Date) => void;
    clearRecipientSessionCookie: () => void;
  }
}

/**
 * Recipient sessions (decision 032), kept like staff sessions: the cookie holds a random token,
 * `recipient_sessions` its hash. They slide like staff sessions do.
 */
export const recipientSessionPlugin = fp(async (app, opts: { config: Config; lookups: RecipientSessionLookups }) => {
  const { config, lookups } = opts;
  const cookieOptions = sessionCookieOptions(config);

  app.decorateRequest('recipientCaller', null as unknown as RecipientCaller);
  app.decorateRequest('recipientSessionId', null);
  app.decorateReply('setRecipientSessionCookie', function (this: FastifyReply, token: string, expire: Date) {
    this.setCookie(RECIPIENT_SESSION_COOKIE, token, { ...cookieOptions, expires: expire });
  });
  app.decorateReply('clearRecipientSessionCookie', function (this: FastifyReply) {
    this.clearCookie(RECIPIENT_SESSION_COOKIE, cookieOptions);
  });

  // Behind the guard, the handler's statements are scoped to the recipient's organization, as a
  // staff request is to the one it names: row-level security is the second wall here too.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.recipientSessionId) withTenants([request.recipientCaller.organizationId], done);
    else done();
  });

  app.decorate('peekRecipient', async (request: FastifyRequest) => {
    const token = request.cookies[RECIPIENT_SESSION_COOKIE];
    if (!token) return undefined;
    const found = await lookups.findLive(hashToken(token));
    return found && found.expire.getTime() > Date.now() ? found.caller : undefined;
  });

  app.decorate('authenticateRecipient', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.recipientSessionId) return;
    const token = request.cookies[RECIPIENT_SESSION_COOKIE];
    if (!token) throw unauthorized(RECIPIENT_SIGNED_OUT);
    const sid = hashToken(token);
    const found = await lookups.findLive(sid);
    if (!found || found.expire.getTime() <= Date.now()) throw unauthorized(RECIPIENT_SIGNED_OUT);
    request.recipientCaller = found.caller;
    request.recipientSessionId = sid;
    // Every write of the page, in one place (the portal's own routes and those other modules add
    // under /api/portal, e.g. expected packages): each one writes rows and tells every desk
    // live, so a script holding a session must not send them as fast as it can (issue 41, item 7).
    if (request.method !== 'GET' && request.method !== 'HEAD' && !request.routeOptions.config.portalUnthrottled) {
      await lookups.throttleWrite(found.caller);
    }
    if (found.expire.getTime() - Date.now() < RECIPIENT_SESSION_TTL_MS / 2) {
      const expire = addMs(new Date(), RECIPIENT_SESSION_TTL_MS);
      await lookups.extend(sid, expire);
      reply.setRecipientSessionCookie(token, expire);
    }
  });
});
