import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from './config';
import { Webhook } from 'standardwebhooks';
import { startReceiver } from './modules/integrations/test-receiver';
import { startServer } from './server';
import { adminQuery, withDatabase } from './test/global-setup';

/**
 * The path `npm start` takes: with DATABASE_URL unset, an embedded PostgreSQL in DATA_DIR;
 * in the run against an external server (TEST_DATABASE_URL), that server.
 */
const external = Boolean(process.env.TEST_DATABASE_URL);
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function environment() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pigeonhole-start-'));
  await fs.chmod(dataDir, 0o755);
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  // The webhook receiver below listens on loopback.
  const env: Record<string, string> = {
    NODE_ENV: 'development',
    PORT: '0',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_TARGETS: 'true',
  };
  if (external) {
    const name = `start_${process.pid}_${Date.now()}`;
    await adminQuery(inject('adminUrl'), `create database ${name}`);
    cleanups.push(() => adminQuery(inject('adminUrl'), `drop database if exists ${name} with (force)`));
    env.DATABASE_URL = withDatabase(inject('adminUrl'), name);
  }
  return env;
}

describe('startServer', () => {
  it(
    'migrates, seeds the demo once, serves, stops, starts again on the same data, and re-encrypts secrets after a key rotation',
    { timeout: 60_000 },
    async () => {
      const env = await environment();
      const receiver = await startReceiver();
      receiver.respondWith(() => ({ status: 204 }));
      cleanups.push(() => receiver.close());
      let hook = { id: '', webhookSecret: '' };
      let session: Record<string, string> = {};
      const first = await startServer(loadConfig(env, process.cwd()));
      try {
        expect(first.demoLogin).toEqual({ email: 'demo@pigeonhole.local', password: 'pigeonhole-demo' });
        expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
        const login = await fetch(`${first.url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: first.demoLogin!.email, password: first.demoLogin!.password }),
        });
        expect(login.status).toBe(200);
        const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
        const orgs = (await (await fetch(`${first.url}/api/organizations`, { headers: { cookie } })).json()) as Array<{
          id: string;
        }>;
        expect(orgs).toHaveLength(1);
        const stats = await fetch(`${first.url}/api/dashboard/stats`, {
          headers: { cookie, 'x-organization-id': orgs[0]!.id },
        });
        expect((await stats.json()).activeRecipients).toBe(8);
        // A webhook whose signing secret is encrypted with the key generated into DATA_DIR.
        const created = await fetch(`${first.url}/api/integrations`, {
          method: 'POST',
          headers: { cookie, 'x-organization-id': orgs[0]!.id, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Hook', type: 'webhook', config: { webhookUrl: `${receiver.url}/hook` } }),
        });
        expect(created.status).toBe(201);
        hook = (await created.json()) as { id: string; webhookSecret: string };
        session = { cookie, 'x-organization-id': orgs[0]!.id };
      } finally {
        await first.stop();
      }
      // Rotation: a new SECRETS_KEY, the generated one as previous; the start re-encrypts.
      const generated = (await fs.readFile(path.join(env.DATA_DIR!, 'secrets.key'), 'utf8')).trim();
      const newKey = Buffer.alloc(32, 5).toString('base64');
      const second = await startServer(
        loadConfig({ ...env, SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: generated }, process.cwd()),
      );
      try {
        expect(second.demoLogin).toBeUndefined();
        expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
      } finally {
        await second.stop();
      }
      await expect(fetch(`${second.url}/api/health`)).rejects.toThrow();
      // Without the previous key the secret still signs: it was re-encrypted with the new key.
      const third = await startServer(loadConfig({ ...env, SECRETS_KEY: newKey }, process.cwd()));
      try {
        const sent = await fetch(`${third.url}/api/integrations/${hook.id}/test`, {
          method: 'POST',
          headers: { ...session, 'content-type': 'application/json' },
          body: '{}',
        });
        expect(await sent.json()).toMatchObject({ ok: true });
        const delivery = receiver.received.at(-1)!;
        expect(
          new Webhook(hook.webhookSecret).verify(delivery.body, delivery.headers as Record<string, string>),
        ).toMatchObject({ type: 'test' });
      } finally {
        await third.stop();
      }
    },
  );
});
