import fp from 'fastify-plugin';

/**
 * Conservative headers for every reply. The CSP allows only our own origin, plus inline styles
 * (Radix positions popovers with style attributes) and blob:/data: images for photo previews.
 */
export const securityHeaders = fp(async (app, opts: { production: boolean }) => {
  const csp = [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    // Swagger UI ships inline scripts; the docs page gets the library's own defaults.
    if (!request.url.startsWith('/api/docs')) reply.header('content-security-policy', csp);
    if (opts.production) reply.header('strict-transport-security', 'max-age=15552000; includeSubDomains');
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
});
