import crypto from 'node:crypto';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { clearCaches } from '../caches';
import { loadConfig, type Config } from '../config';
import { connectDatabase } from '../db/client';
import { appRoleFor } from '../db/row-level-security';
import { organizationMembers } from '../db/schema';
import { atFileEnd } from './file-cleanups';
import { adminQuery, adminRows, withDatabase } from './global-setup';

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Overrides = Record<string, string>;

/**
 * A Fastify app on a database of its own (cloned from the migrated template), torn down after
 * the file. Environment overrides configure it exactly as variables would in production.
 */
/** A fixed key for integration secrets in tests (never used outside them). */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * `poolUrl`: where the app's pool connects instead of the database itself (a pooler in front of
 * it, given the database's own URL); `url` stays the database's, for asOwner and the change feed.
 */
export async function createTestApp(env: Overrides = {}, options: { poolUrl?: (url: string) => string } = {}) {
  const dbName = `t_${crypto.randomBytes(6).toString('hex')}`;
  const adminUrl = inject('adminUrl');
  await adminQuery(adminUrl, `create database ${dbName} template ${inject('templateDb')}`);
  const url = withDatabase(adminUrl, dbName);
  const instance = await startInstance(url, env, options.poolUrl?.(url));

  atFileEnd(async () => {
    await instance.close();
    await adminQuery(adminUrl, `drop database if exists ${dbName} with (force)`);
  });
  /**
   * A statement as the database's owner, for what the application's role may not do (ANALYZE),
   * or to read every row whatever row-level security says; answers the rows.
   */
  const asOwner = <R extends Record<string, unknown> = Record<string, unknown>>(text: string) =>
    adminRows<R>(url, text);
  return { ...instance, asOwner, url };
}

/**
 * Another app instance on the same database as `t` (as behind a load balancer): its own pool,
 * caches and change feed, configured like `t`'s unless `env` says otherwise; closed after the file.
 */
export async function createSecondInstance(t: TestApp, env: Overrides = {}): Promise<TestApp> {
  const instance = await startInstance(t.url, { ...t.env, ...env }, t.poolUrl);
  atFileEnd(() => instance.close());
  return { ...t, ...instance };
}

/**
 * One app on the database at `url`. Caching is on with the production TTL (CACHE_TTL_MS's
 * default), as the app runs. A test that changes rows behind the app's back needs nothing more:
 * the triggers raise the organization's data version (decision 037). CACHE_TTL_MS: '0' when
 * uncached behaviour is its subject.
 */
/**
 * An app on a database migrated elsewhere (a cluster of the test's own, pg-cluster.ts), closed
 * after the file; `asOwner` reads that database as its connecting user.
 */
export async function createAppOn(url: string, env: Overrides = {}): Promise<TestApp> {
  const instance = await startInstance(url, env);
  atFileEnd(() => instance.close());
  const asOwner = <R extends Record<string, unknown> = Record<string, unknown>>(text: string) =>
    adminRows<R>(url, text);
  return { ...instance, asOwner, url };
}

async function startInstance(url: string, env: Overrides, poolUrl = url) {
  const config: Config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      SEED_DEMO: 'false',
      // TEST_CACHE_TTL_MS=60000 makes any read of a stale cache entry show (none may expire mid-test).
      ...(process.env.TEST_CACHE_TTL_MS ? { CACHE_TTL_MS: process.env.TEST_CACHE_TTL_MS } : {}),
      SECRETS_KEY: TEST_SECRETS_KEY,
      // Tests drive the notification worker themselves (notifications tests start one).
      NOTIFICATIONS_WORKER: 'false',
      // The tests' webhook, SMS and SMTP servers listen on loopback; SSRF tests turn this off.
      ALLOW_PRIVATE_TARGETS: 'true',
      // Every test registers from the same address; the limit itself is tested in auth.test.ts.
      REGISTER_RATE_LIMIT_IP: '100000',
      // Behind a transaction pooler, the database itself is the direct connection.
      ...(env.DATABASE_POOLER ? { DATABASE_LISTEN_URL: url } : {}),
      ...env,
    },
    process.cwd(),
  );
  // As in production: the application's role, held by row-level security.
  const database = connectDatabase(poolUrl, 5, { role: await appRoleFor(poolUrl), pooler: config.databasePooler });
  const app = await buildApp({ config, db: database.db });
  await app.ready();
  return {
    app,
    db: database.db,
    pool: database.pool,
    config,
    /** The overrides it was started with. */
    env,
    /** Where its pool connects, when not to the database directly (a pooler). */
    poolUrl: poolUrl === url ? undefined : poolUrl,
    /** Empties this instance's caches. */
    forgetEverything: () => clearCaches(app.caches),
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

let seq = 0;
/** Distinct, valid account details for each call. */
export function newAccount(prefix = 'user') {
  seq += 1;
  const handle = `${prefix}${seq}_${crypto.randomBytes(3).toString('hex')}`;
  return { username: handle, email: `${handle}@example.com`, password: 'correct-horse-9' };
}

/** A client that keeps its session cookie between calls, like a browser tab. */
export class Client {
  cookie: string | undefined;
  organizationId: string | undefined;
  constructor(private readonly t: TestApp) {}

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await this.t.app.inject({
      method,
      url,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.organizationId ? { 'x-organization-id': this.organizationId } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    const setCookie = res.cookies.find((c) => c.name === 'pigeonhole.sid');
    if (setCookie) this.cookie = setCookie.value ? `pigeonhole.sid=${setCookie.value}` : undefined;
    return res;
  }

  /** The same browser tab (cookie, organization) talking to another instance, as behind a load balancer. */
  on(instance: TestApp): Client {
    const other = new Client(instance);
    other.cookie = this.cookie;
    other.organizationId = this.organizationId;
    return other;
  }

  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, undefined, headers);
  post = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', url, body, headers);
  put = (url: string, body?: unknown) => this.request('PUT', url, body);
  patch = (url: string, body?: unknown) => this.request('PATCH', url, body);
  delete = (url: string) => this.request('DELETE', url);

  /** Registers a fresh account and keeps its session. */
  async register(overrides: Partial<ReturnType<typeof newAccount>> & Record<string, unknown> = {}) {
    const account = { ...newAccount(), ...overrides };
    const res = await this.post('/api/register', account);
    if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
    return { ...account, user: res.json<{ id: string }>() };
  }

  /** Creates an organization, selects it for later calls and answers it. */
  async createOrganization(name = 'Acme Towers') {
    const res = await this.post('/api/organizations', { name });
    if (res.statusCode !== 201) throw new Error(`create organization failed: ${res.statusCode} ${res.body}`);
    const org = res.json<{ id: string; role: string }>();
    this.organizationId = org.id;
    return org;
  }
}

/** A newly registered user who belongs to the organization with the given role, with it selected. */
export async function joinAs(t: TestApp, organizationId: string, role: 'admin' | 'member' = 'member') {
  const client = new Client(t);
  const { user } = await client.register();
  await t.db.insert(organizationMembers).values({ organizationId, userId: user.id, role });
  client.organizationId = organizationId;
  return { client, userId: user.id };
}

/** A newly registered user with a new organization of their own (so its admin), selected. */
export async function signUpWithOrganization(t: TestApp, organizationName?: string) {
  const client = new Client(t);
  const account = await client.register();
  const org = await client.createOrganization(organizationName);
  return { client, account, org };
}

/** A newly registered admin with a new organization selected, and one recipient in it (Ada Byron). */
export async function deskWithRecipient(t: TestApp, organizationName?: string) {
  const { client: admin, org } = await signUpWithOrganization(t, organizationName);
  const recipient = (await admin.post('/api/recipients', { firstName: 'Ada', lastName: 'Byron' })).json<{
    id: string;
  }>();
  return { admin, org, recipient };
}

/** An admin with a new organization selected, plus a member added to it. */
export async function adminAndMember(t: TestApp, organizationName = 'Harbor View') {
  const { client: admin, account, org } = await signUpWithOrganization(t, organizationName);
  const { client: member, userId: memberId } = await joinAs(t, org.id);
  return { admin, account, member, memberId, org };
}

/**
 * A POST of a raw body (not JSON-encoded by the client) with the given content type, without a
 * session: malformed input, or a provider's signed webhook.
 */
export function postRaw(
  t: TestApp,
  url: string,
  contentType: string,
  payload: string,
  headers: Record<string, string> = {},
) {
  return t.app.inject({ method: 'POST', url, headers: { 'content-type': contentType, ...headers }, payload });
}
