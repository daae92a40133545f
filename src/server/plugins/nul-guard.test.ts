import { count } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { NUL_CHARACTER_MESSAGE } from '../../contract';
import { recipients, users } from '../db/schema';
import { Client, createTestApp, newAccount, signUpWithOrganization, type TestApp } from '../test/harness';
import { containsNul } from './nul-guard';

/**
 * A NUL byte anywhere in a request answers 400 and changes nothing. Before the guard, login,
 * registration, most text fields and the list filters answered 500 (PostgreSQL text cannot hold
 * U+0000) and the history export broke mid-stream.
 */

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  ({ client: admin } = await signUpWithOrganization(t, 'Nul Towers'));
});

const refusal = { message: NUL_CHARACTER_MESSAGE, code: 'nul_character' };
const rows = async () => ({
  users: (await t.db.select({ n: count() }).from(users))[0]!.n,
  recipients: (await t.db.select({ n: count() }).from(recipients))[0]!.n,
});

describe('a NUL character', () => {
  it('in sign-in and registration answers 400, not 500, and creates nothing', async () => {
    const before = await rows();
    const login = await new Client(t).post('/api/login', { username: 'ad\u0000min', password: 'whatever-123' });
    expect(login.statusCode).toBe(400);
    expect(login.json()).toEqual(refusal);
    const register = await new Client(t).post('/api/register', { ...newAccount(), username: 'nul\u0000user' });
    expect(register.statusCode).toBe(400);
    expect(register.json()).toEqual(refusal);
    expect(await rows()).toEqual(before);
  });

  it('in a text field, a nested field or a key answers 400 and writes nothing', async () => {
    const before = await rows();
    for (const body of [
      { firstName: 'Ada\u0000', lastName: 'Lovelace' },
      { firstName: 'Ada', lastName: 'Lovelace', notes: { deep: [['\u0000']] } },
      { firstName: 'Ada', lastName: 'Lovelace', ['x\u0000']: 1 },
    ]) {
      const res = await admin.post('/api/recipients', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual(refusal);
    }
    expect(await rows()).toEqual(before);
  });

  it('in a list filter, a path or the history export answers 400 before any query runs', async () => {
    for (const url of [
      '/api/mail-items?search=%00',
      '/api/recipients?search=a%00b',
      '/api/history?search=%00',
      '/api/history/export?search=%00',
      '/api/mail-items/%00',
    ]) {
      const res = await admin.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual(refusal);
    }
  });
});

describe('containsNul', () => {
  it('walks 100,000 levels of nesting and 200,000 array items without overflowing the stack', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = { a: [deep] };
    expect(containsNul(deep)).toBe(true);
    expect(containsNul(Array.from({ length: 200_000 }, () => 'ok'))).toBe(false);
    expect(containsNul({ a: 1, b: null, c: [true, 'fine'] })).toBe(false);
  });
});
