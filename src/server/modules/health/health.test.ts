import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('operations endpoints', () => {
  it('GET /api/health answers ok while the database is reachable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/[\w-]+/);
  });

  it('echoes a well-formed incoming request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('serves the OpenAPI document listing the calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    for (const p of [
      '/api/register',
      '/api/login',
      '/api/organizations',
      '/api/organizations/{id}/members/{userId}',
      '/api/dashboard/stats',
    ]) {
      expect(doc.paths).toHaveProperty([p]);
    }
  });
});
