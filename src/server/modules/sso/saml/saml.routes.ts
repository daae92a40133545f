import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SAML_SERVICE_PROVIDER_PATH, SamlServiceProvider } from '../../../../contract';
import type { Deps } from '../../../context';
import { isUuid } from '../../../db/tenant-scope';
import type { App } from '../../../http';
import { callerOf } from '../../../plugins/organization';
import { errorReplies } from '../../../http';
import { SAML_STATE_COOKIE, samlStateCookie } from '../browser-binding';
import { SsoRefusal } from '../complete-sign-in';
import type { SamlService } from './saml.service';

/** Metadata and ACS are reached by the provider and the browser, not the client: JSON 64 KB is plenty, a SAMLResponse is not. */
const ACS_BODY_LIMIT_BYTES = 512 * 1024;

const OrganizationParams = z.object({ organizationId: z.string().max(64) });

/** The refused sign-in goes back to the sign-in page, which shows the words of its code. */
function toLogin(reply: FastifyReply, err: SsoRefusal) {
  const reason = err.detail?.split(':')[0];
  const query = new URLSearchParams({ sso_error: err.code, ...(reason && /^saml_/.test(reason) ? { reason } : {}) });
  return reply.redirect(`/login?${query}`, 303);
}

/**
 * SAML's public endpoints (decision 062): our metadata (the provider's admin or the provider
 * itself fetches it) and the assertion consumer service (the provider's HTML form POSTs the
 * response from the provider's site). Neither has a session or an organization header: the
 * organization is in the path, as it is in the entity id and ACS URL registered at the provider.
 */
export function samlRoutes(app: App, saml: SamlService, { config, publicUrl }: Pick<Deps, 'config' | 'publicUrl'>) {
  const tags = ['Single sign-on'];

  app.get(SAML_SERVICE_PROVIDER_PATH, {
    schema: {
      tags,
      summary:
        'What to register at the SAML identity provider for this organization: entity id, ACS URL, metadata URL (admin)',
      response: { 200: SamlServiceProvider, ...errorReplies(400, 401, 403) },
    },
    preValidation: [app.authenticate, app.requireOrganization, app.requireAdmin],
    handler: async (request) => saml.urlsOf(callerOf(request).organizationId),
  });

  app.get('/api/sso/saml/:organizationId/metadata', {
    schema: {
      tags,
      summary:
        'Our SAML service provider metadata for the organization (public): entity id, ACS URL, signed assertions wanted',
      params: OrganizationParams,
      response: { 200: z.string(), ...errorReplies(404) },
    },
    handler: async (request, reply) => {
      const xml = await saml.metadata(request.params.organizationId);
      return reply.type('application/samlmetadata+xml; charset=utf-8').send(xml);
    },
  });

  // The HTTP-POST binding sends an HTML form (application/x-www-form-urlencoded): parsed in this
  // scope only; every other route keeps refusing form bodies (app.ts: JSON only).
  app.register(async (scope: App) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.post('/api/sso/saml/:organizationId/acs', {
      // The provider's page POSTs here from its own site, so the browser marks it cross-site: the
      // CSRF guard (plugins/csrf.ts) lets exactly this route through. What stands in for it here
      // is the response itself: signed by the organization's provider, for our audience and ACS,
      // answering a sign-in this server started in this very browser (the state cookie the start
      // set, SameSite=None so that it rides on this cross-site POST; browser-binding.ts), or
      // provider-started where the admin allowed it; used once.
      config: { crossSiteAllowed: true },
      bodyLimit: ACS_BODY_LIMIT_BYTES,
      schema: {
        tags,
        summary:
          "The assertion consumer service (HTTP-POST binding): the provider's signed response signs the person in",
        description:
          'Redirects (303) to / with a session on success, or to /login?sso_error=<code>&reason=<saml_…> when refused ' +
          '(unsigned or wrongly signed, signature wrapping, another audience, issuer or recipient, expired, replayed, ' +
          'a sign-in started in another browser (no or another `pigeonhole.saml_state` cookie), unsolicited when not ' +
          'allowed, an address outside the verified domains). The state cookie is cleared either way.',
        params: OrganizationParams,
        body: z.object({
          SAMLResponse: z.string().max(ACS_BODY_LIMIT_BYTES).optional(),
          RelayState: z.string().max(1024).optional(),
        }),
      },
      handler: async (request, reply) => {
        const { organizationId } = request.params;
        // The state cookie serves one answer, taken or refused (the path is ours only for an id).
        if (isUuid(organizationId)) {
          const acsPath = new URL(saml.urlsOf(organizationId).acsUrl).pathname;
          reply.clearCookie(SAML_STATE_COOKIE, samlStateCookie(config, publicUrl(), acsPath));
        }
        try {
          const browserState = request.cookies[SAML_STATE_COOKIE];
          const { session } = await saml.consume(organizationId, request.body, browserState, clientOf(request));
          reply.setSessionCookie(session.token, session.expire);
          return reply.redirect('/', 303);
        } catch (err) {
          if (!(err instanceof SsoRefusal)) throw err;
          request.log.warn({ code: err.code, detail: err.detail }, 'SAML sign-in refused');
          return toLogin(reply, err);
        }
      },
    });
  });
}

const clientOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 300),
});
