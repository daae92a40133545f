import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../lib/errors';

export const CROSS_SITE_MESSAGE = 'Cross-site request refused';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence beside SameSite=Lax cookies: a write whose browser says it comes from another site
 * is refused before anything runs. Browsers send Origin on every cross-origin write (and
 * Sec-Fetch-Site on all of them); a page cannot forge either. The site is the one the request was
 * sent to (its Host) or APP_URL. Requests without either header (API clients, webhooks, the
 * tests) pass: they carry no ambient browser credentials a third site could borrow. Sign-in is
 * covered too, so no site can sign a visitor into an account of its choosing.
 */
export function refuseCrossSiteWrites(app: FastifyInstance, appUrl: string | undefined) {
  const configured = appUrl ? new URL(appUrl).host : undefined;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    // The one route a foreign site must be able to POST to: the SAML assertion consumer service,
    // where the identity provider's own page submits the signed response (HTTP-POST binding). It
    // carries no ambient authority to borrow: what it acts on is the signed response alone
    // (modules/sso/saml/saml.routes.ts, decision 062).
    if (request.routeOptions.config?.crossSiteAllowed === true) return;
    if (isCrossSite(request, configured)) throw forbidden(CROSS_SITE_MESSAGE, 'cross_site_request');
  });
}

function isCrossSite(request: FastifyRequest, configuredHost: string | undefined): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true; // 'null' (sandboxed frames, file:) or garbage
  }
  return host !== hostOf(request) && host !== configuredHost;
}

/** The Host the request was sent to, normalised as URL does (no default port). */
function hostOf(request: FastifyRequest): string | undefined {
  try {
    return new URL(`${request.protocol}://${request.host}`).host;
  } catch {
    return undefined;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Lets cross-site writes reach this route: the SAML ACS only (see above). */
    crossSiteAllowed?: boolean;
  }
}
