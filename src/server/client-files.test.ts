import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createTestApp } from './test/harness';

/**
 * The built client as the server hands it out: index.html must never be cached (a deploy has to
 * reach the desk on its next load), hashed assets are cached for a year.
 */

let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  const t = await createTestApp();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pigeonhole-client-'));
  fs.mkdirSync(path.join(root, 'dist', 'client', 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'dist', 'client', 'index.html'), '<!doctype html><title>Pigeonhole</title>');
  fs.writeFileSync(path.join(root, 'dist', 'client', 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(root, 'dist', 'client', 'assets', 'index-abc123.js'), 'console.log(1)');
  app = await buildApp({ config: { ...t.config, rootDir: root }, db: t.db });
  await app.ready();
  afterAll(async () => {
    await app.close();
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('the built client', () => {
  it('serves index.html with no-cache on every route, /index.html included', async () => {
    for (const url of ['/', '/mail-intake', '/settings-billing?checkout=success', '/index.html']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<title>Pigeonhole</title>');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year, other files for an hour', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });
});
