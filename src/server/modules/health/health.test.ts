import net from 'node:net';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../db/client';
import { createTestApp, type TestApp } from '../../test/harness';
import { healthRoutes } from './health.routes';
import { createHealthService } from './health.service';

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

  it('GET /api/health answers 503 unreachable while the database cannot be reached', async () => {
    // A port nobody listens on: taken, then released.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const down = connectDatabase(`postgres://nobody@127.0.0.1:${port}/none`, 1);
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    healthRoutes(app, createHealthService({ db: down.db }));
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'unavailable', database: 'unreachable' });
    await app.close();
    await down.close();
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
