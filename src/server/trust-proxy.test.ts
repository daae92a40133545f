import { describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy } from './config';
import { createTestApp, type TestApp } from './test/harness';

describe('TRUST_PROXY', () => {
  it('takes true, false, a hop count or a list of addresses, CIDRs and names', () => {
    expect(loadConfig({}, '/srv/app').trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }, '/srv/app').trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }, '/srv/app').trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }, '/srv/app').trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }, '/srv/app').trustProxy).toEqual(['loopback']);
    expect(
      loadConfig({ TRUST_PROXY: ' loopback, 10.0.0.0/8 ,192.168.1.7, fd00::/8,10.1.0.0/255.255.0.0' }, '/srv/app')
        .trustProxy,
    ).toEqual(['loopback', '10.0.0.0/8', '192.168.1.7', 'fd00::/8', '10.1.0.0/255.255.0.0']);
  });

  it('refuses what is none of those, naming the variable, at start', () => {
    for (const bad of ['yes', '0', '11', '10.0.0.0/33', '300.1.1.1', 'nginx.local', 'fd00::/129', '1.2.3.4/8/9']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }, '/srv/app'), bad).toThrow(/TRUST_PROXY/);
    }
    expect(parseTrustProxy('loopbak')).toMatch(/"loopbak" is not an address/);
  });
});

/** Failed sign-ins from `remoteAddress`, claiming to forward for `forwardedFor`; answers the statuses. */
async function failedSignIns(t: TestApp, n: number, remoteAddress: string, forwardedFor: string) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { username: `nobody${i}_${forwardedFor}`, password: 'wrong-password-1' },
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

describe('client addresses behind a proxy (sign-in limit per address: 3)', () => {
  const limits = { LOGIN_RATE_LIMIT_IP: '3', LOGIN_RATE_LIMIT_ACCOUNT: '100' };

  it('TRUST_PROXY=loopback: each forwarded client has a count of its own; the proxy is not one client', async () => {
    const t = await createTestApp({ ...limits, TRUST_PROXY: 'loopback' });
    expect(await failedSignIns(t, 4, '127.0.0.1', '203.0.113.10')).toEqual([401, 401, 401, 429]);
    // Another client through the same proxy is not held by the first one's count.
    expect(await failedSignIns(t, 1, '127.0.0.1', '203.0.113.11')).toEqual([401]);
    const [row] = await t.asOwner<{ n: number }>(
      `select count(*)::int as n from rate_limits where key like 'login:ip:203.0.113.1%'`,
    );
    expect(row?.n).toBe(2);
  });

  it('a forwarded address from a connection that is not a trusted proxy is ignored (no spoofing a fresh count)', async () => {
    const t = await createTestApp({ ...limits, TRUST_PROXY: 'loopback' });
    // A client connecting directly from 198.51.100.7 rotates its X-Forwarded-For: still one address.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push(...(await failedSignIns(t, 1, '198.51.100.7', `203.0.113.${20 + i}`)));
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('TRUST_PROXY=false (the default): X-Forwarded-For is ignored', async () => {
    const t = await createTestApp(limits);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push(...(await failedSignIns(t, 1, '127.0.0.1', `203.0.113.${40 + i}`)));
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('a hop count trusts that many proxies from the nearest', async () => {
    const t = await createTestApp({ ...limits, TRUST_PROXY: '1' });
    // client, an address the client made up, then what the one trusted proxy saw: the last is the client.
    expect(await failedSignIns(t, 4, '127.0.0.1', '1.1.1.1, 203.0.113.60')).toEqual([401, 401, 401, 429]);
    expect(await failedSignIns(t, 1, '127.0.0.1', '1.1.1.1, 203.0.113.61')).toEqual([401]);
  });
});
