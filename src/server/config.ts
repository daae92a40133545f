import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * The pool a machine's CPUs can keep busy: twice the cores (PostgreSQL's rule of thumb, for the
 * embedded database on the same machine) and 4 more for transactions that wait on their commit's
 * disk flush rather than a CPU (the intake batches up to 4 at once), at most 20. More connections
 * add no throughput: their statements queue for the same CPUs inside PostgreSQL instead of in the
 * pool, and cost more there. Fewer starve the reads behind the writes. On this two-CPU machine
 * (decision 027), Pending Pickups' page and the intake at 20 connections each:
 * pool 20: 1,210-1,430 and 1,020-1,160 req/s; pool 8: 1,600 and 1,190; pool 4: 1,540-1,700 and 720-810.
 */
export const defaultPoolSize = (cpus: number) => Math.min(20, 2 * cpus + 4);

export type TrustProxy = boolean | number | string[];

/**
 * TRUST_PROXY as Fastify's trustProxy option. Fastify 5 takes a bare number as "trust nothing"
 * (it cannot check the nearest peer), so a hop count goes as the function proxy-addr calls with
 * each address's distance (0: the connecting peer): the n nearest are proxies, the next is the client.
 */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY's value, or why it is not one. Checked here rather than left to proxy-addr, which
 * throws an unhelpful "invalid IP address" at the first request's compile instead of at start.
 */
export function parseTrustProxy(raw: string): TrustProxy | string {
  const value = raw.trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    // 0 hops trusts nobody: say false, the same thing without the surprise.
    return hops >= 1 && hops <= 10 ? hops : 'a hop count is between 1 and 10 (false trusts no proxy)';
  }
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (PROXY_NAMES.has(entry)) continue;
    const [address, prefix, ...rest] = entry.split('/');
    const family = net.isIP(address ?? '');
    const prefixOk =
      prefix === undefined ||
      (/^\d+$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32)) ||
      (family === 4 && net.isIPv4(prefix));
    if (family === 0 || !prefixOk || rest.length > 0) {
      return `"${entry}" is not an address, a CIDR or one of loopback, linklocal, uniquelocal (expected true, false, a hop count or a comma-separated list)`;
    }
  }
  return entries;
}

/**
 * Every environment variable the server reads, parsed and documented in one place.
 * The README's configuration table mirrors this list.
 */
const EnvSchema = z.object({
  /** production | development | test. Production turns on Secure cookies and turns off demo seeding. */
  NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
  /** Address and port to listen on. PORT 0 picks a free port. */
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  /**
   * Public base URL of links in emails and payment pages. Required in production; elsewhere the
   * listening address. Never taken from a request's Host header.
   */
  APP_URL: z.url().optional(),
  /** PostgreSQL connection string. Unset: an embedded PostgreSQL runs in DATA_DIR. */
  DATABASE_URL: z.string().optional(),
  /**
   * Where each instance LISTENs for the other instances' changes (one connection of its own).
   * Unset: DATABASE_URL. Set it to the database itself when DATABASE_URL goes through a pooler in
   * transaction mode (PgBouncer), which cannot carry LISTEN: required with DATABASE_POOLER, which
   * also runs the migrations and the statistics check over it.
   */
  DATABASE_LISTEN_URL: z.string().optional(),
  /**
   * `transaction` when DATABASE_URL (and DATABASE_REPLICA_URL) go through a pooler in transaction
   * mode (PgBouncer's pool_mode = transaction): no named prepared statements, the role and
   * settings set in every transaction (SET LOCAL), and the migrations and the statistics check over
   * DATABASE_LISTEN_URL, which must then name the database directly (decision 038). Unset: a
   * direct connection or a pooler in session mode.
   */
  DATABASE_POOLER: z.enum(['transaction']).optional(),
  /**
   * A streaming replica of DATABASE_URL (a physical copy: same roles). History, its statistics,
   * the CSV export and Reports read from it when it has replayed the organization's writes the
   * request knows of (its data version), else from DATABASE_URL after waiting up to 200 ms
   * (decision 038). Unset: everything reads from DATABASE_URL.
   */
  DATABASE_REPLICA_URL: z.string().optional(),
  /** Where the embedded PostgreSQL keeps its cluster (DATA_DIR/pg). */
  DATA_DIR: z.string().default('./data'),
  /**
   * Connection pool size per app instance. Unset: twice the CPUs plus 4, at most 20 (defaultPoolSize). With
   * PostgreSQL on a machine of its own, about twice its cores, shared by the instances.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).optional(),
  /** SMTP server for account emails, e.g. smtp://user:pass@host:587. Unset: links are logged. */
  SMTP_URL: z.string().optional(),
  /** From address of platform emails. */
  MAIL_FROM: z.string().default('Pigeonhole <no-reply@pigeonhole.local>'),
  /** Where the landing page's Contact Sales button writes to (a mailto: link). */
  SALES_EMAIL: z.email().default('sales@pigeonhole.local'),
  /**
   * Comma-separated emails that become super admins once the inbox owner sets the password through
   * the emailed link (sent when the address is verified, or on "Forgot password?"). Decision 029.
   */
  SUPER_ADMIN_EMAILS: z.string().default(''),
  /**
   * Whether super admins must have two-factor sign-in on to use the console: `required` (the
   * default in production) or `optional` (the default elsewhere). Decision 029.
   */
  SUPER_ADMIN_TWO_FACTOR: z.enum(['required', 'optional']).optional(),
  /** Session lifetime in hours (sliding). */
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  /** Login attempts allowed per account and per client address within LOGIN_RATE_WINDOW_SECONDS. */
  LOGIN_RATE_LIMIT_ACCOUNT: z.coerce.number().int().min(1).default(10),
  LOGIN_RATE_LIMIT_IP: z.coerce.number().int().min(1).default(50),
  /**
   * The live desk's streams (GET /api/events, decision 043) one instance holds at once (decision
   * 051): per session (the browser's tabs) and per person (their devices), the newest wins and the
   * oldest is ended; per instance, a new stream past the most answers 503 with Retry-After and the
   * browser tries again later, or through another instance. Each stream is an open file and a
   * session re-read every 15-30 s.
   */
  LIVE_STREAMS_PER_SESSION: z.coerce.number().int().min(1).max(1000).default(10),
  LIVE_STREAMS_PER_PERSON: z.coerce.number().int().min(1).max(100_000).default(20),
  LIVE_STREAMS_PER_INSTANCE: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  /**
   * SCIM requests (decision 060) one organization's identity provider may make in a minute, on
   * every instance together; past it, 429 with Retry-After (Entra ID and Okta back off and retry).
   */
  SCIM_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1200),
  /** Accounts one client address may register in an hour. */
  REGISTER_RATE_LIMIT_IP: z.coerce.number().int().min(1).default(20),
  LOGIN_RATE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  /**
   * Largest body of a call carrying a photo, in bytes (photos arrive as base64 JSON, hence
   * generous). Every other call accepts 256 KB, the recipients import 4 MB.
   */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(15 * 1024 * 1024),
  /** pino level: fatal, error, warn, info, debug, trace, silent. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seed a demo organization on an empty database (default: on outside production). */
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  /**
   * How long an instance keeps a cached list, dashboard figure or settings (ms). An entry is only
   * served at the organization's data version it was built at (decision 037), so a write on any
   * instance shows on the next request everywhere; the TTL bounds memory and figures that move
   * with the clock ("today"). Sessions and memberships are never cached. 0 disables.
   */
  CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /**
   * Key for integration secrets at rest: base64 of 32 random bytes (`openssl rand -base64 32`).
   * Unset: one is generated into DATA_DIR/secrets.key on first start.
   */
  SECRETS_KEY: z.string().optional(),
  /**
   * Rotation: the key(s) SECRETS_KEY replaced, comma-separated. Secrets they wrote stay readable
   * and are re-encrypted with SECRETS_KEY at start; unsubscribe links they signed keep working.
   */
  SECRETS_KEY_PREVIOUS: z.string().default(''),
  /** Run the notification worker in this instance (sends queued email, SMS and webhooks). */
  NOTIFICATIONS_WORKER: z.enum(['true', 'false']).default('true'),
  /**
   * Seconds between two checks for tables whose planner statistics are missing or far behind
   * (db/statistics.ts; 0: only at start). Autovacuum normally keeps them; this covers restored
   * backups, bulk loads and databases run with autovacuum off.
   */
  STATISTICS_CHECK_SECONDS: z.coerce.number().int().min(0).default(60),
  /** Days a sent, failed or skipped message stays in the item's Messages and delivery logs (0: forever). */
  NOTIFICATION_RETENTION_DAYS: z.coerce.number().int().min(0).default(365),
  /** Twilio-compatible API base URL for SMS (tests point it at a local receiver). */
  SMS_API_BASE_URL: z.url().default('https://api.twilio.com'),
  /** Slack's Web API base, as @slack/web-api's slackApiUrl (tests point it at a local server). */
  SLACK_API_URL: z.url().default('https://slack.com/api/'),
  /** Stripe secret key (sk_…). Unset (with PayPal's keys unset too): checkout runs against the local demo provider. */
  STRIPE_SECRET_KEY: z.string().optional(),
  /** Signing secret of the Stripe webhook endpoint (whsec_…): /api/webhooks/stripe refuses events without it. */
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Stripe's API, or any Stripe-compatible host (tests point it at a local server). */
  STRIPE_API_URL: z.url().default('https://api.stripe.com'),
  /** PayPal REST app credentials. Unset: the PayPal button pays the local demo provider. */
  PAYPAL_CLIENT_ID: z.string().optional(),
  PAYPAL_CLIENT_SECRET: z.string().optional(),
  /** PayPal's REST API (sandbox by default; https://api-m.paypal.com for live), or any PayPal-compatible host. */
  PAYPAL_API_URL: z.url().default('https://api-m.sandbox.paypal.com'),
  /**
   * The local demo payment provider: checkout "completes" without charging anything, so the whole
   * flow can be tried on a laptop. All or nothing: when on, it takes both the card and the PayPal
   * choice; when off, a choice whose provider has no keys is not offered (its calls answer 409).
   * Unset: on outside production when no Stripe or PayPal key is set, off in production. `true`
   * together with any provider key refuses to start; `true` in production is logged loudly at start.
   */
  DEMO_PAYMENTS: z.enum(['true', 'false']).optional(),
  /**
   * Bearer token that GET /metrics (Prometheus text format) requires. Unset: /metrics answers 404,
   * so an instance exposes nothing an operator did not ask for (docs/operations.md).
   */
  METRICS_TOKEN: z
    .string()
    .refine((v) => v === '' || v.length >= 16, 'at least 16 characters (a guessable token exposes the metrics)')
    .optional(),
  /**
   * Which proxies in front may say who the client is (X-Forwarded-For, -Proto, -Host), for the
   * client address of rate limits and audit logs: `false` (none: the connecting address is the
   * client), `true` (whoever connects: only when nothing but the proxy can reach the app), a hop
   * count (`1`: the nearest proxy), or a comma-separated list of addresses, CIDRs and the names
   * `loopback`, `linklocal`, `uniquelocal` (nginx on the same machine: `loopback`). A hop count
   * trusts whoever connects, like `true`, but only that many addresses deep: prefer a list.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  /**
   * Lets webhooks, SMS providers and SMTP servers of integrations be private, loopback or
   * link-local addresses. Off by default everywhere (SSRF guard); for local testing only.
   */
  ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).default('false'),
  /**
   * Lets a single sign-on provider's issuer be plain http (openid-client's allowInsecureRequests):
   * a provider on loopback in tests only (decision 059). Off by default everywhere.
   */
  SSO_ALLOW_HTTP_ISSUERS: z.enum(['true', 'false']).default('false'),
  /**
   * Our SAML signing key pair (decision 062), PEM files: the RSA private key and its X.509
   * certificate. Set both (or neither): every AuthnRequest is then signed (RSA-SHA256) and our
   * SP metadata publishes the certificate with AuthnRequestsSigned="true"; a provider whose
   * metadata says WantAuthnRequestsSigned is refused at save without them. One pair for all
   * organizations; the same files on every instance.
   */
  SAML_SP_KEY_FILE: z.string().optional(),
  SAML_SP_CERT_FILE: z.string().optional(),
  /**
   * The DNS servers that check a domain's verification record (decision 058): comma-separated
   * addresses with an optional port (`1.1.1.1`, `127.0.0.1:5353`, `[::1]:53`). Unset: the
   * machine's resolvers. Tests point it at a server on loopback.
   */
  DNS_SERVERS: z
    .string()
    .trim()
    .default('')
    .transform((value, ctx) => {
      const servers = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = servers.filter((s) => !isDnsServer(s));
      if (bad.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `not an IP address with an optional port: ${bad.join(', ')} (e.g. 1.1.1.1, 127.0.0.1:5353, [::1]:53)`,
        });
        return z.NEVER;
      }
      return servers;
    }),
});

/** An IPv4 or IPv6 address, with an optional port (IPv6 in brackets then): what Resolver.setServers takes. */
function isDnsServer(entry: string): boolean {
  const port = (p: string | undefined) =>
    p === undefined || (/^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535);
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return net.isIPv6(bracketed[1]!) && port(bracketed[2]);
  if (net.isIPv6(entry)) return true;
  const [host, p, ...rest] = entry.split(':');
  return rest.length === 0 && net.isIPv4(host!) && port(p);
}

export type Config = {
  env: 'production' | 'development' | 'test';
  host: string;
  port: number;
  appUrl: string | undefined;
  databaseUrl: string | undefined;
  databaseListenUrl: string | undefined;
  /** DATABASE_POOLER: 'transaction' behind PgBouncer in transaction mode (decision 038), else null. */
  databasePooler: 'transaction' | null;
  /** DATABASE_REPLICA_URL: where History, exports and Reports read (decision 038). */
  databaseReplicaUrl: string | undefined;
  dataDir: string;
  databasePoolSize: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The landing page's Contact Sales address (served in GET /api/plans). */
  salesEmail: string;
  superAdminEmails: string[];
  /** Super admins need two-factor on to use the console. */
  superAdminTwoFactor: 'required' | 'optional';
  sessionTtlMs: number;
  loginRateLimit: { perAccount: number; perIp: number; windowSeconds: number };
  /** Registrations per client address per hour. */
  registerRateLimitPerIp: number;
  /** LIVE_STREAMS_PER_*: the most live desk streams per session, person and instance (decision 051). */
  liveStreams: { perSession: number; perPerson: number; perInstance: number };
  bodyLimitBytes: number;
  logLevel: string;
  seedDemo: boolean;
  /** TRUST_PROXY as Fastify's trustProxy takes it. */
  trustProxy: TrustProxy;
  /** METRICS_TOKEN: the bearer token /metrics requires; undefined: /metrics is not exposed (404). */
  metricsToken: string | undefined;
  cacheTtlMs: number;
  secretsKey: string | undefined;
  /** ALLOW_PRIVATE_TARGETS: integrations may reach private addresses (local testing only). */
  allowPrivateTargets: boolean;
  /** SSO_ALLOW_HTTP_ISSUERS: an OIDC issuer may be plain http (tests on loopback only). */
  ssoAllowHttpIssuers: boolean;
  /** SAML_SP_KEY_FILE and SAML_SP_CERT_FILE, read and checked: signs AuthnRequests; undefined: unsigned. */
  samlSpSigning: SamlSpSigning | undefined;
  /** DNS_SERVERS: the servers that check domain verification records; empty: the machine's resolvers. */
  dnsServers: string[];
  /** SCIM requests per organization and minute (SCIM_RATE_LIMIT_PER_MINUTE). */
  scimRateLimitPerMinute: number;
  secretsKeyPrevious: string[];
  notificationsWorker: boolean;
  notificationRetentionDays: number;
  statisticsCheckMs: number;
  smsApiBaseUrl: string;
  /** Slack's Web API base URL, ending in '/' (the SDK joins method names to it). */
  slackApiUrl: string;
  /** Card payments through Stripe; null: the demo provider takes them when demoPayments, else none. */
  stripe: { secretKey: string; webhookSecret: string | undefined; apiUrl: string } | null;
  /** PayPal payments; null: the demo provider takes them when demoPayments, else none. */
  paypal: { clientId: string; clientSecret: string; apiUrl: string } | null;
  /** DEMO_PAYMENTS: the local demo provider takes both payment choices (never together with provider keys). */
  demoPayments: boolean;
  /** Root of the project (migrations/, dist/client). */
  rootDir: string;
};

/** Where a server listening on `host`:`port` is reached from this machine (links when APP_URL is unset). */
export function listeningUrl(host: string, port: number): string {
  const name =
    host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, rootDir = process.cwd()): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.APP_URL) {
    throw new Error(
      'Invalid configuration:\n  APP_URL: required in production (the links in emails and payment pages are built from it)',
    );
  }
  // Half of PayPal's pair is a typo, not a choice: PayPal would silently be off.
  if (Boolean(e.PAYPAL_CLIENT_ID) !== Boolean(e.PAYPAL_CLIENT_SECRET)) {
    const missing = e.PAYPAL_CLIENT_ID ? 'PAYPAL_CLIENT_SECRET' : 'PAYPAL_CLIENT_ID';
    throw new Error(
      `Invalid configuration:\n  ${missing}: required with ${missing === 'PAYPAL_CLIENT_ID' ? 'PAYPAL_CLIENT_SECRET' : 'PAYPAL_CLIENT_ID'} (PayPal needs both)`,
    );
  }
  // Any provider key: then no payment choice falls back to the demo provider.
  const providerKeys = [
    e.STRIPE_SECRET_KEY ? 'STRIPE_SECRET_KEY' : null,
    e.PAYPAL_CLIENT_ID ? 'PAYPAL_CLIENT_ID' : null,
    e.PAYPAL_CLIENT_SECRET ? 'PAYPAL_CLIENT_SECRET' : null,
  ].filter((k) => k !== null);
  if (e.DEMO_PAYMENTS === 'true' && providerKeys.length > 0) {
    throw new Error(
      `Invalid configuration:\n  DEMO_PAYMENTS: true cannot be combined with ${providerKeys.join(', ')} ` +
        '(the demo provider would complete the other payment choice without charging anything); unset one of them',
    );
  }
  // Behind a transaction pooler, LISTEN, the migrations' and statistics' connections need the
  // database itself: no default could be right.
  if (e.DATABASE_POOLER === 'transaction' && !e.DATABASE_LISTEN_URL) {
    throw new Error(
      'Invalid configuration:\n  DATABASE_LISTEN_URL: required with DATABASE_POOLER=transaction (a direct connection ' +
        'to the database for LISTEN, the migrations and the statistics check, which a transaction pooler cannot carry)',
    );
  }
  const demoPayments = e.DEMO_PAYMENTS
    ? e.DEMO_PAYMENTS === 'true'
    : e.NODE_ENV !== 'production' && providerKeys.length === 0;
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    appUrl: e.APP_URL,
    databaseUrl: e.DATABASE_URL || undefined,
    databaseListenUrl: e.DATABASE_LISTEN_URL || undefined,
    databasePooler: e.DATABASE_POOLER ?? null,
    databaseReplicaUrl: e.DATABASE_REPLICA_URL || undefined,
    dataDir: path.resolve(rootDir, e.DATA_DIR),
    databasePoolSize: e.DATABASE_POOL_SIZE ?? defaultPoolSize(os.availableParallelism()),
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    salesEmail: e.SALES_EMAIL,
    superAdminEmails: e.SUPER_ADMIN_EMAILS.split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    superAdminTwoFactor: e.SUPER_ADMIN_TWO_FACTOR ?? (e.NODE_ENV === 'production' ? 'required' : 'optional'),
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    loginRateLimit: {
      perAccount: e.LOGIN_RATE_LIMIT_ACCOUNT,
      perIp: e.LOGIN_RATE_LIMIT_IP,
      windowSeconds: e.LOGIN_RATE_WINDOW_SECONDS,
    },
    registerRateLimitPerIp: e.REGISTER_RATE_LIMIT_IP,
    scimRateLimitPerMinute: e.SCIM_RATE_LIMIT_PER_MINUTE,
    liveStreams: {
      perSession: e.LIVE_STREAMS_PER_SESSION,
      perPerson: e.LIVE_STREAMS_PER_PERSON,
      perInstance: e.LIVE_STREAMS_PER_INSTANCE,
    },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO ? e.SEED_DEMO === 'true' : e.NODE_ENV === 'development',
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN || undefined,
    cacheTtlMs: e.CACHE_TTL_MS,
    secretsKey: e.SECRETS_KEY || undefined,
    allowPrivateTargets: e.ALLOW_PRIVATE_TARGETS === 'true',
    ssoAllowHttpIssuers: e.SSO_ALLOW_HTTP_ISSUERS === 'true',
    samlSpSigning: readSamlSpSigning(e.SAML_SP_KEY_FILE, e.SAML_SP_CERT_FILE, rootDir),
    dnsServers: e.DNS_SERVERS,
    secretsKeyPrevious: e.SECRETS_KEY_PREVIOUS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    notificationsWorker: e.NOTIFICATIONS_WORKER === 'true',
    notificationRetentionDays: e.NOTIFICATION_RETENTION_DAYS,
    statisticsCheckMs: e.STATISTICS_CHECK_SECONDS * 1000,
    smsApiBaseUrl: e.SMS_API_BASE_URL,
    slackApiUrl: e.SLACK_API_URL.endsWith('/') ? e.SLACK_API_URL : `${e.SLACK_API_URL}/`,
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET || undefined,
          apiUrl: e.STRIPE_API_URL,
        }
      : null,
    paypal:
      e.PAYPAL_CLIENT_ID && e.PAYPAL_CLIENT_SECRET
        ? { clientId: e.PAYPAL_CLIENT_ID, clientSecret: e.PAYPAL_CLIENT_SECRET, apiUrl: e.PAYPAL_API_URL }
        : null,
    demoPayments,
    rootDir,
  };
}

/**
 * What an operator must hear about when an instance starts (buildApp logs each at error level,
 * once): today, the demo payment provider switched on in production, where it hands out paid
 * plans for nothing.
 */
export function startupWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.env === 'production' && config.demoPayments) {
    warnings.push(
      'DEMO_PAYMENTS=true in production: checkout completes against the demo payment provider and ' +
        'puts organizations on paid plans WITHOUT CHARGING ANYTHING. Unset DEMO_PAYMENTS and set ' +
        'Stripe or PayPal keys to take real payments.',
    );
  }
  return warnings;
}

/** Our SAML signing key pair (PEM), as node-saml takes it. */
export type SamlSpSigning = { privateKey: string; certificate: string };

/**
 * Reads SAML_SP_KEY_FILE and SAML_SP_CERT_FILE: both or neither, an RSA key, a certificate that
 * is its public half. A mistake stops the start, rather than signing requests no provider accepts.
 */
function readSamlSpSigning(keyFile: string | undefined, certFile: string | undefined, rootDir: string) {
  if (!keyFile && !certFile) return undefined;
  const fail = (message: string): never => {
    throw new Error(`Invalid configuration:\n  ${message}`);
  };
  if (!keyFile || !certFile) {
    fail(
      `${keyFile ? 'SAML_SP_CERT_FILE' : 'SAML_SP_KEY_FILE'}: required with ${keyFile ? 'SAML_SP_KEY_FILE' : 'SAML_SP_CERT_FILE'} (signing needs the key and its certificate)`,
    );
  }
  const read = (name: string, file: string) => {
    try {
      return fs.readFileSync(path.resolve(rootDir, file), 'utf8');
    } catch (err) {
      return fail(`${name}: cannot read ${file} (${(err as Error).message})`);
    }
  };
  const privateKey = read('SAML_SP_KEY_FILE', keyFile!);
  const certificate = read('SAML_SP_CERT_FILE', certFile!);
  let key: crypto.KeyObject | undefined;
  let cert: crypto.X509Certificate | undefined;
  try {
    key = crypto.createPrivateKey(privateKey);
  } catch {
    fail('SAML_SP_KEY_FILE: not a PEM private key');
  }
  if (key!.asymmetricKeyType !== 'rsa')
    fail('SAML_SP_KEY_FILE: must be an RSA key (RSA-SHA256 is what providers accept)');
  try {
    cert = new crypto.X509Certificate(certificate);
  } catch {
    fail('SAML_SP_CERT_FILE: not a PEM X.509 certificate');
  }
  if (!cert!.checkPrivateKey(key!)) fail('SAML_SP_CERT_FILE: is not the certificate of SAML_SP_KEY_FILE');
  return { privateKey, certificate };
}
