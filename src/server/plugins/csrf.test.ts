import { beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { recipients } from '../db/schema';
import { Client, createTestApp, type TestApp } from '../test/harness';
import { CROSS_SITE_MESSAGE } from './csrf';

/** A write a browser sends from another site is refused before it runs, sign-in included. */

let t: TestApp;
let admin: Client;
let account: Awaited<ReturnType<Client['register']>>;
beforeAll(async () => {
  t = await createTestApp({ APP_URL: 'https://desk.example.com' });
  admin = new Client(t);
  account = await admin.register();
  await admin.createOrganization('Csrf Court');
});

const recipientCount = async () => (await t.db.select({ n: count() }).from(recipients))[0]!.n;
const body = { firstName: 'Ada', lastName: 'Lovelace' };

describe('cross-site writes', () => {
  it('refuses a write from another origin, a null origin or a cross-site fetch, and writes nothing', async () => {
    const before = await recipientCount();
    const refused: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost:80.evil.example' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of refused) {
      const res = await admin.post('/api/recipients', body, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toEqual({ message: CROSS_SITE_MESSAGE, code: 'cross_site_request' });
    }
    expect(await recipientCount()).toBe(before);
  });

  it('refuses a sign-in posted by another site (login CSRF)', async () => {
    const res = await new Client(t).post(
      '/api/login',
      { username: account.username, password: account.password },
      { origin: 'https://evil.example' },
    );
    expect(res.statusCode).toBe(403);
    expect(res.cookies.find((c) => c.name === 'pigeonhole.sid')).toBeUndefined();
  });

  it('lets same-origin writes, APP_URL writes, reads and header-less clients through', async () => {
    expect((await admin.post('/api/recipients', body, { origin: 'http://localhost:80' })).statusCode).toBe(201);
    expect((await admin.post('/api/recipients', body, { origin: 'https://desk.example.com' })).statusCode).toBe(201);
    expect((await admin.post('/api/recipients', body, { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(201);
    expect((await admin.post('/api/recipients', body)).statusCode).toBe(201);
    expect((await admin.get('/api/recipients', { origin: 'https://evil.example' })).statusCode).toBe(200);
  });
});
