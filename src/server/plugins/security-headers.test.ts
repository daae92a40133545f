import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { securityHeaders } from './security-headers';

/** The policy every reply carries (decision 019), exactly as browsers receive it. */
const CSP =
  "default-src 'self';script-src 'self' 'wasm-unsafe-eval';style-src 'self' 'unsafe-inline';" +
  "img-src 'self' data: blob:;connect-src 'self';worker-src 'self';frame-ancestors 'none';base-uri 'self';form-action 'self'";

const POLICY = {
  'content-security-policy': CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** Helmet defaults we do not send (the policy stays the one decided; decision 019). */
const NOT_SENT = [
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'cross-origin-embedder-policy',
  'origin-agent-cluster',
  'x-xss-protection',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-dns-prefetch-control',
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ APP_URL: 'https://desk.example.com' });
});

describe('security headers of the app', () => {
  it('are on API replies, with cache-control no-store and no HSTS outside production', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({ ...POLICY, 'cache-control': 'no-store' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    for (const name of NOT_SENT) expect(res.headers[name], name).toBeUndefined();
  });

  it('are on refusals too: unknown API paths, signed-out calls, bad input and cross-site writes', async () => {
    const replies = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/no-such-call' }),
      t.app.inject({ method: 'GET', url: '/api/auth/user' }),
      t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 1 } }),
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { origin: 'https://evil.example' },
        payload: { username: 'a', password: 'b' },
      }),
    ]);
    expect(replies.map((r) => r.statusCode)).toEqual([404, 401, 400, 403]);
    for (const res of replies) expect(res.headers).toMatchObject({ ...POLICY, 'cache-control': 'no-store' });
  });

  it('give the API docs (Swagger UI) the same policy; its page works under it (e2e/api-docs.e2e.ts)', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers).toMatchObject(POLICY);
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.headers).toMatchObject(POLICY);
  });
});

describe('the security headers plugin', () => {
  async function appWith(production: boolean) {
    const app = Fastify();
    await app.register(securityHeaders, { production });
    app.get('/api/plain', async () => ({ ok: true }));
    app.get('/api/cached', async (_req, reply) => reply.header('cache-control', 'private, max-age=60').send('{}'));
    app.get('/page', async (_req, reply) => reply.type('text/html').send('<p>hi</p>'));
    await app.ready();
    return app;
  }

  it('sends HSTS in production only', async () => {
    const prod = await appWith(true);
    const dev = await appWith(false);
    expect((await prod.inject({ url: '/api/plain' })).headers['strict-transport-security']).toBe(
      'max-age=15552000; includeSubDomains',
    );
    expect((await prod.inject({ url: '/page' })).headers['strict-transport-security']).toBe(
      'max-age=15552000; includeSubDomains',
    );
    expect((await dev.inject({ url: '/api/plain' })).headers['strict-transport-security']).toBeUndefined();
    await Promise.all([prod.close(), dev.close()]);
  });

  it('lets PayPal’s SDK load, frame and call PayPal only when PayPal is configured', async () => {
    const withPaypal = Fastify();
    await withPaypal.register(securityHeaders, { production: true, paypal: true });
    withPaypal.get('/page', async (_req, reply) => reply.type('text/html').send('<p>hi</p>'));
    const csp = String((await withPaypal.inject({ url: '/page' })).headers['content-security-policy']);
    for (const directive of ['script-src', 'connect-src', 'frame-src', 'img-src']) {
      expect(csp).toMatch(new RegExp(`${directive} [^;]*https://\\*\\.paypal\\.com`));
    }
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    await withPaypal.close();
    const without = await appWith(true);
    expect(String((await without.inject({ url: '/page' })).headers['content-security-policy'])).not.toContain('paypal');
    await without.close();
  });

  it('defaults cache-control to no-store on /api/ only, and keeps a route’s own', async () => {
    const app = await appWith(false);
    expect((await app.inject({ url: '/api/plain' })).headers['cache-control']).toBe('no-store');
    expect((await app.inject({ url: '/api/cached' })).headers['cache-control']).toBe('private, max-age=60');
    const page = await app.inject({ url: '/page' });
    expect(page.headers['cache-control']).toBeUndefined();
    expect(page.headers).toMatchObject(POLICY);
    await app.close();
  });
});
