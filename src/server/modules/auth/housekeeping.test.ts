import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { rateLimits, sessions } from '../../db/schema';
import { Client, createTestApp, type TestApp } from '../../test/harness';
import { sweepExpired } from './housekeeping';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('sweepExpired', () => {
  it('removes expired sessions and old rate-limit windows, keeping live ones', async () => {
    const live = new Client(t);
    const { user: liveUser } = await live.register();
    const stale = new Client(t);
    const { user: staleUser } = await stale.register();
    await t.db
      .update(sessions)
      .set({ expire: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, staleUser.id));
    await t.db.insert(rateLimits).values([
      { key: 'old', windowStart: new Date(Date.now() - 2 * 86_400_000), count: 3 },
      { key: 'fresh', windowStart: new Date(), count: 1 },
    ]);

    await sweepExpired(t.db);

    expect(await t.db.select().from(sessions).where(eq(sessions.userId, staleUser.id))).toHaveLength(0);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, liveUser.id))).toHaveLength(1);
    // 'fresh' and the registrations' own window of this hour stay.
    const keys = (await t.db.select().from(rateLimits)).map((r) => r.key);
    expect(keys).toContain('fresh');
    expect(keys).not.toContain('old');
    expect(keys.filter((k) => !k.startsWith('register:ip:'))).toEqual(['fresh']);
    expect((await live.get('/api/auth/user')).statusCode).toBe(200);
  });
});
