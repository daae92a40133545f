import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * The Content-Security-Policy of every reply, the web client's and the API docs' (Swagger UI
 * loads only its own scripts and styles and fetches /api/docs/json). Our own origin, plus inline
 * styles (Radix positions popovers with style attributes), blob:/data: images for photo previews
 * WebAssembly for the barcode and label readers, and the label reader's worker from our own
 * origin (decision 040); no framing by anyone.
 */
const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'connect-src': ["'self'"],
  // The label reader's Web Worker (decision 040), started from our own origin, never a blob: URL.
  'worker-src': ["'self'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

/**
 * With PayPal configured the client loads PayPal's JavaScript SDK, which renders its buttons in
 * frames of PayPal's and talks to PayPal: the sources PayPal documents for it
 * (developer.paypal.com/sdk/js/best-practices), without its 'unsafe-inline' for scripts (the
 * buttons' own scripts run in PayPal's frames, outside this policy).
 */
const PAYPAL_SOURCES = ['https://*.paypal.com', 'https://*.paypalobjects.com', 'https://*.venmo.com'];
const PAYPAL_DIRECTIVES = ['script-src', 'connect-src', 'img-src', 'style-src', 'frame-src', 'child-src'] as const;

function cspDirectives(paypal: boolean): Record<string, string[]> {
  if (!paypal) return CSP_DIRECTIVES;
  const directives: Record<string, string[]> = { ...CSP_DIRECTIVES };
  for (const name of PAYPAL_DIRECTIVES) directives[name] = [...(directives[name] ?? []), ...PAYPAL_SOURCES];
  return directives;
}

/** HSTS in production only: a laptop or test server on plain http must not pin its host to https. */
const HSTS = { maxAge: 15_552_000, includeSubDomains: true };

/**
 * Security headers by `@fastify/helmet` (decision 019), configured to our policy: the CSP above,
 * `X-Frame-Options: DENY`, `nosniff`, `strict-origin-when-cross-origin`, HSTS in production.
 * Helmet's other defaults are off so that the policy stays the one we had: Cross-Origin-Opener-
 * Policy `same-origin` would cut PayPal's checkout pop-up from its opener, and the legacy ones
 * (X-XSS-Protection, X-Download-Options, X-Permitted-Cross-Domain-Policies) address browsers and
 * plug-ins we do not support. Turning one on is a policy change of its own (decision 019).
 *
 * Ours on top: API replies default to `cache-control: no-store` (personal data must not sit in
 * a shared or browser cache); a route that sets its own cache-control keeps it.
 */
export const securityHeaders = fp(async (app, opts: { production: boolean; paypal?: boolean }) => {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(opts.paypal ?? false) },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: opts.production ? HSTS : false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
});
