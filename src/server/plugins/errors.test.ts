import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { users } from '../db/schema';
import { createTestApp, newAccount, postRaw, type TestApp } from '../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '2048' });
});

const userCount = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n;

describe('bad input answers 4xx JSON and changes nothing', () => {
  it('malformed JSON', async () => {
    const res = await postRaw(t, '/api/register', 'application/json', '{"username": "abc",');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Request body is not valid JSON', code: 'invalid_json' });
  });

  it('a body over the size limit', async () => {
    const before = await userCount();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      // Over the 256 KB every call but the photo and import calls accepts (BODY_LIMIT_BYTES is for photos).
      payload: { ...newAccount(), firstName: 'x'.repeat(300_000) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Request body is too large');
    expect(await userCount()).toBe(before);
  });

  it('a wrong content type', async () => {
    const res = await postRaw(t, '/api/login', 'text/plain', 'hello');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toHaveProperty('message');
  });

  it('a JSON array or null instead of an object', async () => {
    for (const payload of ['[]', 'null', '"text"']) {
      const res = await postRaw(t, '/api/login', 'application/json', payload);
      expect(res.statusCode).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
  });

  it('an unknown API route answers JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});
