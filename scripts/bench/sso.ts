/**
 * Single sign-on's latency (issue 43, decision 059) beside a password sign-in's, through a real
 * OpenID provider on loopback (oidc-provider, as in sso.test.ts) and the server over HTTP:
 *
 * - password: POST /api/login (argon2id verify, session);
 * - SSO, first sign-in: our start, the provider's authorization and login, our callback (code
 *   exchange, ID token checks, userinfo, account + membership + identity + session created);
 * - SSO, again: the same person a second time (the identity link found);
 * - our part alone: the time of our two requests (start and callback) within those trips.
 *
 * Each SIGN_INS times (default 30), one after the other; p50 and p95 in milliseconds.
 *
 *   npm run bench:sso     (DATABASE_URL=… for a PostgreSQL of your own)
 */
import pg from 'pg';
import { OIDC_CALLBACK_PATH, ssoStartUrl } from '../../src/contract';
import { SESSION_COOKIE } from '../../src/server/plugins/session';
import { SSO_STATE_COOKIE } from '../../src/server/modules/sso/browser-binding';
import { CookieJar, followProvider, startTestOidcProvider } from '../../src/server/modules/sso/test-oidc-provider';
import {
  accountHeaders,
  log,
  makeDataDir,
  onCleanup,
  printTable,
  provisionDatabase,
  runBenchmark,
  signUp,
  startBenchServer,
} from './harness';

const SIGN_INS = Number(process.env.SIGN_INS ?? 30);
const DOMAIN = 'sso-bench.example';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const summary = (label: string, times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return [label, percentile(sorted, 50).toFixed(1), percentile(sorted, 95).toFixed(1), String(times.length)];
};

async function main(): Promise<number> {
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  const server = await startBenchServer(dataDir, database, { SSO_ALLOW_HTTP_ISSUERS: 'true' });
  const callbackUrl = `${server.url}${OIDC_CALLBACK_PATH}`;
  const idp = await startTestOidcProvider([
    { client_id: 'pigeonhole', client_secret: 'bench-secret', redirect_uris: [callbackUrl] },
  ]);
  onCleanup(idp.close);
  log(`provider at ${idp.issuer}`);

  const admin = await signUp(server.url);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(
    `insert into organization_domains (organization_id, domain, verification_token, status, verified_at, verified_by)
     values ($1, $2, 'bench', 'verified', now(), 'dns')`,
    [admin.organizationId, DOMAIN],
  );
  // Every timed first sign-in adds a member: no seat limit in the way.
  await client.query(`update organizations set max_users = -1 where id = $1`, [admin.organizationId]);
  await client.end();
  const saved = await fetch(`${server.url}/api/sso/connection`, {
    method: 'PUT',
    headers: { ...accountHeaders(admin), 'content-type': 'application/json' },
    body: JSON.stringify({
      protocol: 'oidc',
      enabled: true,
      oidcIssuer: idp.issuer,
      oidcClientId: 'pigeonhole',
      oidcClientSecret: 'bench-secret',
    }),
  });
  if (saved.status !== 200) throw new Error(`PUT /api/sso/connection answered ${saved.status}: ${await saved.text()}`);

  /** One browser trip; answers the whole time and the time of our own two requests. */
  async function ssoSignIn(email: string, sub: string) {
    idp.signInAs({ sub, email, email_verified: true, given_name: 'Bench', family_name: 'Person' });
    const began = performance.now();
    const start = await fetch(server.url + ssoStartUrl(email), { redirect: 'manual' });
    const ours1 = performance.now() - began;
    const state = start.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${SSO_STATE_COOKIE}=`))
      ?.split(';')[0];
    const back = await followProvider(start.headers.get('location')!, callbackUrl, new CookieJar());
    const cbStarted = performance.now();
    const done = await fetch(back, { redirect: 'manual', headers: state ? { cookie: state } : {} });
    const ours2 = performance.now() - cbStarted;
    const signedIn = done.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (done.headers.get('location') !== '/' || !signedIn) {
      throw new Error(`the sign-in of ${email} ended at ${done.headers.get('location')}`);
    }
    return { total: performance.now() - began, ours: ours1 + ours2 };
  }

  // Warm both paths (discovery cache, prepared statements, JIT) before timing.
  await ssoSignIn(`warm@${DOMAIN}`, 'warm');
  const password = { username: 'bench@bench.test', password: 'bench-password-1' };
  const loginOnce = async () => {
    const began = performance.now();
    const res = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(password),
    });
    if (res.status !== 200) throw new Error(`POST /api/login answered ${res.status}: ${await res.text()}`);
    return performance.now() - began;
  };
  await loginOnce();

  const passwordTimes: number[] = [];
  const firstTimes: number[] = [];
  const againTimes: number[] = [];
  const oursFirst: number[] = [];
  const oursAgain: number[] = [];
  for (let i = 0; i < SIGN_INS; i++) {
    passwordTimes.push(await loginOnce());
    const email = `person${i}@${DOMAIN}`;
    const first = await ssoSignIn(email, `sub-${i}`);
    firstTimes.push(first.total);
    oursFirst.push(first.ours);
    const again = await ssoSignIn(email, `sub-${i}`);
    againTimes.push(again.total);
    oursAgain.push(again.ours);
  }

  console.log(`\nSign-in latency, ${SIGN_INS} each, one after the other (ms):`);
  printTable(
    ['sign-in', 'p50', 'p95', 'n'],
    [
      summary('password (POST /api/login)', passwordTimes),
      summary('SSO first sign-in, whole trip', firstTimes),
      summary('SSO first sign-in, our start + callback', oursFirst),
      summary('SSO again, whole trip', againTimes),
      summary('SSO again, our start + callback', oursAgain),
    ],
  );
  return 0;
}

runBenchmark(main, 5 * 60_000);
