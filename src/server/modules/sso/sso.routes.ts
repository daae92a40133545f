import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  OIDC_CALLBACK_PATH,
  SSO_START_PATH,
  SsoConnection,
  SsoConnectionBody,
  SsoLookupBody,
  SsoLookupReply,
  SsoTestReply,
} from '../../../contract';
import type { Deps } from '../../context';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { ClientInfo } from '../auth/auth.service';
import { oidcStateCookie, samlStateCookie, SAML_STATE_COOKIE, SSO_STATE_COOKIE } from './browser-binding';
import type { SsoService } from './sso.service';

const clientOf = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 300),
});

const StartQuery = z.object({
  email: SsoLookupBody.shape.email,
  invitation: z.string().trim().max(200).optional(),
});

const SsoTestBody = z.object({ oidcIssuer: z.string().trim().max(2048).nullish() });

/** Single sign-on (decision 059): the admins' settings, and the public sign-in through the provider. */
export function ssoRoutes(app: App, sso: SsoService, { config, publicUrl }: Pick<Deps, 'config' | 'publicUrl'>) {
  const tags = ['Single sign-on'];
  const admin = [app.authenticate, app.requireOrganization, app.requireAdmin];
  const stateCookie = oidcStateCookie(config);

  app.get('/api/sso/connection', {
    schema: {
      tags,
      summary: "The organization's single sign-on connection (admin); 404 when none is set up",
      response: { 200: SsoConnection, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request) => sso.get(callerOf(request)),
  });

  app.put('/api/sso/connection', {
    schema: {
      tags,
      summary: "Set up or change the organization's single sign-on (admin)",
      description:
        'The whole connection. `oidcClientSecret` is write-only: absent or blank keeps the stored one, the reply ' +
        'says only `oidcClientSecretSet`. Turning it on needs a verified email domain; requiring it needs a ' +
        'break-glass admin of the organization.',
      body: SsoConnectionBody,
      response: { 200: SsoConnection, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request) => sso.save(callerOf(request), request.body),
  });

  app.delete('/api/sso/connection', {
    schema: {
      tags,
      summary: "Remove the organization's single sign-on (admin); its members keep their accounts",
      response: { 204: z.null(), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request, reply) => {
      await sso.remove(callerOf(request));
      return reply.status(204).send(null);
    },
  });

  app.post('/api/sso/connection/test', {
    schema: {
      tags,
      summary: "Read the provider's OpenID discovery document (admin): the typed issuer, else the saved one",
      body: SsoTestBody,
      response: { 200: SsoTestReply, ...errorReplies(400, 401, 403, 429) },
    },
    preValidation: admin,
    handler: async (request) => sso.test(callerOf(request), request.body.oidcIssuer),
  });

  app.post('/api/sso/lookup', {
    schema: {
      tags,
      summary: 'Whether an address signs in through its organization’s provider (the sign-in page asks)',
      body: SsoLookupBody,
      response: { 200: SsoLookupReply, ...errorReplies(400, 429) },
    },
    handler: async (request) => sso.lookup(request.body.email, clientOf(request)),
  });

  app.get(SSO_START_PATH, {
    schema: {
      tags,
      summary: "Go to the address's identity provider (a browser navigation: answers 302)",
      querystring: StartQuery,
      response: { 302: z.null(), ...errorReplies(400) },
    },
    handler: async (request, reply) => {
      const { email, invitation } = request.query;
      const started = await sso.start(email, invitation || undefined, clientOf(request));
      // The state, bound to this browser (browser-binding.ts): where the protocol's answer arrives.
      if (started.state && started.samlAcsPath) {
        reply.setCookie(SAML_STATE_COOKIE, started.state, samlStateCookie(config, publicUrl(), started.samlAcsPath));
      } else if (started.state) reply.setCookie(SSO_STATE_COOKIE, started.state, stateCookie);
      return reply.redirect(started.location, 302);
    },
  });

  app.get(OIDC_CALLBACK_PATH, {
    schema: {
      tags,
      summary: "The OpenID provider's answer (redirect URI): signs in and goes to the app, or to /login with a reason",
      querystring: z.record(z.string(), z.string()),
      response: { 302: z.null() },
    },
    handler: async (request, reply) => {
      const url = new URL(request.url, publicUrl());
      const result = await sso.oidcCallback(url, request.cookies[SSO_STATE_COOKIE], clientOf(request));
      reply.clearCookie(SSO_STATE_COOKIE, { path: stateCookie.path });
      if (result.signedIn) reply.setSessionCookie(result.signedIn.session.token, result.signedIn.session.expire);
      return reply.redirect(result.location, 302);
    },
  });
}
