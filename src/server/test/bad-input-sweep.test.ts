import crypto from 'node:crypto';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import pg from 'pg';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, type TestApp } from './harness';

/**
 * The bad-input sweep: every route of the OpenAPI document receives hostile requests (malformed
 * and deeply nested JSON, wrong types for every body property, oversized strings, NUL bytes,
 * unicode junk, out-of-range numbers, bogus ids, unknown properties, hostile query strings and
 * headers), signed out and as a signed-in admin (a super admin too, so the console's routes are
 * reached) with the organization selected. It fails on any 5xx, on a 4xx that is not a JSON error,
 * on input that breaks the route's schema being accepted, on an event-loop stall over
 * STALL_LIMIT_MS, and on any change to the data.
 *
 * Only requests that must change nothing are sent: the input breaks the route's schema or is
 * refused before any handler, the target does not exist, the route only looks things up, or the
 * call is a read. The database fingerprint taken before and after is the proof.
 */

const STALL_LIMIT_MS = 200;
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const MAX_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
const BIG = 'A'.repeat(100 * 1024);
/** Combining marks, astral and bidi characters, a BOM, zero-width space, a lone surrogate. */
const JUNK =
  'Z\u0334\u0321a\u0337l\u0338g\u0336o \u{1d54f} \u202eevil\u202c \u{1f600}\ufeff\u200b \ufdfd \u6f22\u5b57 \ud800';
/** The same without the lone surrogate, which encodeURIComponent refuses. */
const URL_JUNK = JUNK.replace('\ud800', '');

/**
 * Tables whose rows change on requests that are refused, by design; they are left out of the
 * fingerprint (or, for platform_log, the kinds written that way).
 */
const UNFINGERPRINTED_TABLES: Record<string, string> = {
  // Fixed-window counters: every sign-in, registration, password-reset request and refused Stripe
  // webhook counts here whether or not it succeeds (that is what limits guessing).
  rate_limits: 'counts refused attempts too',
};
const ROW_FILTERS: Record<string, string> = {
  // System Logs records repeated failed sign-ins and refused payment webhooks (throttled): the
  // sweep provokes both. Operators' changes ('super_admin') must not appear.
  platform_log: `kind not in ('sign_in', 'webhook')`,
  // Refused billing calls are audited, an unknown checkout or PayPal order included
  // (billing/plan-changes.ts auditRefusal), and reading a recipient's personal data is audited
  // (GET /api/recipients/{id}/personal-data). Every other entry means something changed.
  audit_log: `action not in ('billing.refused', 'recipient.personal_data_exported')`,
};

/**
 * Routes that only look something up or check a secret, whatever well-formed body they get: any
 * hostile but schema-valid body may reach their handler. Every other write is sent only bodies
 * its schema refuses, or a target that does not exist.
 */
const LOOKUP_ONLY = new Set([
  'POST /api/login',
  'POST /api/forgot-password',
  'POST /api/reset-password',
  'POST /api/verify-email',
  'POST /api/change-password', // the current password is never right
  'POST /api/login/two-factor', // nor a challenge, a code or a recovery code
  'POST /api/auth/two-factor/setup',
  'POST /api/auth/two-factor/enable',
  'POST /api/auth/two-factor/disable',
  'POST /api/auth/two-factor/recovery-codes',
  'POST /api/invitations/accept',
  'POST /api/unsubscribe/{token}',
  'POST /api/webhooks/stripe', // signature refused
  'POST /api/recipients/import/preview',
  'POST /api/billing/create-portal-session', // 409 without Stripe
]);
const LOGOUT = 'POST /api/logout';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Schema = {
  type?: string | string[];
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
};
type Parameter = { name: string; in: string; schema?: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
type Route = {
  method: Method;
  path: string;
  key: string;
  params: Parameter[];
  query: Parameter[];
  body?: Schema;
};

type Target = 'real' | 'missing' | 'invalid';
type Probe = {
  route: Route;
  url: string;
  target: Target;
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** The body as JSON text parses (undefined: no body). */
  parsed?: unknown;
  /** Refused before any handler runs: not JSON, nested too deep, NUL, unsupported media type. */
  early?: boolean;
  label: string;
};

// ---------------------------------------------------------------------------------------------
// What a schema must refuse. Conservative: true only when the value surely breaks the schema as
// zod applies it (blank strings may become null, numbers may be coerced, strings may be trimmed).

const typesOf = (s: Schema): string[] => (s.type === undefined ? [] : [s.type].flat());

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v));
  return false;
}

function mustReject(s: Schema | undefined, v: unknown): boolean {
  if (!s) return false;
  if (containsNul(v)) return true; // refused by the NUL guard, whatever the schema
  if (v === undefined) return !s.nullable;
  if (s.allOf?.some((b) => mustReject(b, v))) return true;
  for (const alternatives of [s.anyOf, s.oneOf]) {
    if (alternatives?.length && alternatives.every((b) => mustReject({ ...b, nullable: b.nullable ?? s.nullable }, v)))
      return true;
  }
  const blank = v === null || (typeof v === 'string' && v.trim() === '');
  if (blank && (s.nullable || typesOf(s).includes('null'))) return false;
  if (s.enum && !s.enum.includes(v)) return true;
  if (s.const !== undefined && s.const !== v) return true;
  const types = typesOf(s);
  if (types.length === 0) return false;
  if (types.includes('number') || types.includes('integer')) {
    // z.coerce.number() takes strings, booleans, one-element arrays and null.
    const n =
      typeof v === 'number'
        ? v
        : ['string', 'boolean'].includes(typeof v) || Array.isArray(v) || v === null
          ? Number(v)
          : NaN;
    if (Number.isFinite(n) && !breaksNumber(s, types, n)) return false;
    if (types.length === 1 || typeof v === 'number') return true;
  }
  if (typeof v === 'string' && types.includes('string')) return breaksString(s, v);
  if (typeof v === 'boolean' && types.includes('boolean')) return false;
  if (Array.isArray(v) && types.includes('array')) {
    if (s.maxItems !== undefined && v.length > s.maxItems) return true;
    if (s.minItems !== undefined && v.length < s.minItems) return true;
    return v.some((item) => mustReject(s.items, item));
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && types.includes('object')) {
    const o = v as Record<string, unknown>;
    if (s.required?.some((k) => !(k in o) && s.properties?.[k]?.default === undefined)) return true;
    for (const [k, inner] of Object.entries(o)) {
      const p = s.properties?.[k];
      if (p ? mustReject(p, inner) : s.additionalProperties === false) return true;
    }
    return false;
  }
  return true;
}

function breaksNumber(s: Schema, types: string[], n: number) {
  return (
    (!types.includes('number') && !Number.isInteger(n)) ||
    (s.minimum !== undefined && n < s.minimum) ||
    (s.maximum !== undefined && n > s.maximum) ||
    (s.exclusiveMinimum !== undefined && n <= s.exclusiveMinimum) ||
    (s.exclusiveMaximum !== undefined && n >= s.exclusiveMaximum)
  );
}

function breaksString(s: Schema, v: string) {
  const trimmed = v.trim();
  // zod counts code points; a UTF-16 length is never shorter.
  if (s.maxLength !== undefined && [...trimmed].length > s.maxLength) return true;
  if (s.minLength !== undefined && v.length < s.minLength) return true;
  if (s.pattern) {
    const re = new RegExp(s.pattern, 'u');
    if (![v, trimmed, trimmed.toLowerCase()].some((candidate) => re.test(candidate))) return true;
  }
  return false;
}

/** A value the schema accepts, as far as the JSON schema tells (refinements aside). */
function sample(s: Schema | undefined): unknown {
  if (!s) return 'sweep';
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  if (s.anyOf?.length) return sample(s.anyOf[0]);
  const type = typesOf(s).find((x) => x !== 'null');
  switch (type) {
    case 'integer':
    case 'number':
      return Math.min(Math.max(s.minimum ?? 1, 1), s.maximum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries((s.required ?? []).map((k) => [k, sample(s.properties?.[k])]));
    case 'string': {
      if (s.format === 'uuid') return crypto.randomUUID();
      if (s.format === 'email' || s.pattern?.includes('@')) return 'nobody.sweep@example.com';
      if (s.format === 'uri') return 'https://example.com/sweep';
      return 'sweep'.padEnd(s.minLength ?? 0, 'x');
    }
    default:
      return 'sweep';
  }
}

/**
 * Hostile values for one property: `wrong` ones break its type whatever the rest of the body;
 * `fitting` ones have its type (or are refused for a NUL) and may get past validation beside a
 * well-formed rest.
 */
function hostileValues(s: Schema, full: boolean): { wrong: unknown[]; fitting: unknown[] } {
  const types = typesOf(s);
  const isString = types.includes('string');
  const isNumber = types.includes('number') || types.includes('integer');
  const wrongType = isString ? 12345 : 'not-a-number';
  if (!full) return { wrong: [wrongType], fitting: [BIG] };
  const wrong: unknown[] = [wrongType, null, true, [], ['x', 1], {}, { nested: { deeper: [1] } }];
  const fitting: unknown[] = [BIG, 'x\u0000y', JUNK];
  if (isString) fitting.push(-1, 1e308, '   ');
  if (isNumber) fitting.push(-1, 0, 1.5, -2147483649, 2147483648, Number.MAX_SAFE_INTEGER + 2, 1e308, '12abc');
  if (types.includes('boolean')) fitting.push('true', 0, 1);
  if (types.includes('array')) fitting.push('x', [null], [BIG], Array(1000).fill('x'), [[[[]]]], [{}]);
  if (s.enum) fitting.push('not-an-option', String(s.enum[0]).toUpperCase());
  if (s.format === 'uuid' || s.pattern?.includes('[0-9a-fA-F]{8}'))
    fitting.push('not-a-uuid', `${NIL_UUID}x`, 'gggggggg-gggg-4ggg-8ggg-gggggggggggg');
  if (s.format === 'email' || s.pattern?.includes('@'))
    fitting.push('not-an-email', `${'a.'.repeat(20_000)}@`, `a@${'a'.repeat(60_000)}`);
  if (s.format === 'uri') fitting.push('javascript:alert(1)', 'http://', `https://${'a'.repeat(70_000)}.com`);
  return { wrong, fitting };
}

/** Every property, nested objects' included, as a path and its schema. */
function propertiesOf(s: Schema, prefix: string[] = [], depth = 0): Array<{ path: string[]; schema: Schema }> {
  const out: Array<{ path: string[]; schema: Schema }> = [];
  for (const [name, p] of Object.entries(s.properties ?? {})) {
    out.push({ path: [...prefix, name], schema: p });
    if (depth < 2 && p.properties) out.push(...propertiesOf(p, [...prefix, name], depth + 1));
  }
  return out;
}

function withValue(base: unknown, path: string[], value: unknown): Record<string, unknown> {
  const root = structuredClone((base ?? {}) as Record<string, unknown>);
  let node = root;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node[key] = next !== null && typeof next === 'object' && !Array.isArray(next) ? next : {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
  return root;
}

// ---------------------------------------------------------------------------------------------

let t: TestApp;
const ids: Record<string, string[]> = {};
let admin: Client;
let adminLogin: { username: string; password: string };

beforeAll(async () => {
  t = await createTestApp();
  // Row-level security is forced on the owner too: only a role that bypasses it sees every row.
  const [role] = await t.asOwner<{ bypass: boolean }>(
    'select rolsuper or rolbypassrls as bypass from pg_roles where rolname = current_user',
  );
  if (!role?.bypass) throw new Error('the fingerprint needs an owner that bypasses row-level security');

  admin = new Client(t);
  const account = await admin.register({ firstName: 'Sweep', lastName: 'Admin' });
  adminLogin = { username: account.username, password: account.password };
  const org = await admin.createOrganization('Sweep Towers');
  await t.asOwner(`update users set is_super_admin = true where id = '${account.user.id}'`);
  const created = async (res: Awaited<ReturnType<Client['post']>>) => {
    if (res.statusCode >= 300) throw new Error(`setup failed: ${res.statusCode} ${res.body}`);
    return res.json<Record<string, unknown> & { id: string }>();
  };
  const recipient = await created(
    await admin.post('/api/recipients', {
      firstName: 'Amara',
      lastName: 'Okafor',
      email: 'amara@example.com',
      unit: '101',
    }),
  );
  const mailroom = await created(await admin.post('/api/mailrooms', { name: 'Lobby' }));
  const location = await created(
    await admin.post('/api/mailroom-locations', { name: 'Shelf A', type: 'shelf', mailroomId: mailroom.id }),
  );
  const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
  const parcel = await created(
    await admin.post('/api/mail-items', {
      type: 'package',
      recipientId: recipient.id,
      locationId: location.id,
      trackingNumber: '1Z999AA10123456784',
      sender: 'ACME',
    }),
  );
  const letter = await created(
    await admin.post('/api/mail-items', {
      type: 'letter',
      recipientId: recipient.id,
      mailroomId: mailroom.id,
      photoData: `data:image/png;base64,${png.toString('base64')}`,
    }),
  );
  const integration = await created(await admin.post('/api/integrations', { name: 'API', type: 'api' }));
  const [apiKey] = (await admin.get(`/api/integrations/${integration.id}/api-keys`)).json<Array<{ id: string }>>();
  const invitation = await created(await admin.post('/api/user-invitations', { email: 'invitee.sweep@example.com' }));
  const checkout = await admin.post('/api/billing/create-checkout-session', { planId: 'starter', quantity: 3 });
  const checkoutId = /([0-9a-f-]{36})$/.exec(checkout.json<{ url?: string }>().url ?? '')?.[1];
  if (!apiKey || !checkoutId) throw new Error(`setup failed: no API key or demo checkout (${checkout.body})`);

  Object.assign(ids, {
    organizations: [org.id],
    'organization-settings': [org.id],
    members: [account.user.id],
    users: [account.user.id],
    recipients: [recipient.id],
    mailrooms: [mailroom.id],
    'mailroom-locations': [location.id],
    'mail-items': [parcel.id, letter.id],
    photos: [String(letter.photoUrl).split('/').pop()!],
    'user-invitations': [invitation.id],
    integrations: [integration.id],
    'api-keys': [apiKey.id],
    'demo-checkouts': [checkoutId],
  });
}, 60_000);

/** For every table of the public schema: its row count and an md5 of its rows in order. */
async function fingerprint(): Promise<Record<string, string>> {
  const tables = await t.asOwner<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' order by 1`,
  );
  const counted = tables
    .filter(({ name }) => !UNFINGERPRINTED_TABLES[name])
    .map(({ name }) => {
      const where = ROW_FILTERS[name] ? `where ${ROW_FILTERS[name]}` : '';
      return `select ${pg.escapeLiteral(name)} as name, count(*)::int as n,
        md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h
        from public.${pg.escapeIdentifier(name)} t ${where}`;
    });
  const rows = await t.asOwner<{ name: string; n: number; h: string }>(counted.join('\nunion all\n'));
  return Object.fromEntries(rows.map((r) => [r.name, `${r.n} rows, md5 ${r.h}`]));
}

/** Waits until the setup's background work (notification fan-out, emails) has settled. */
async function settledFingerprint() {
  let previous = await fingerprint();
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const next = await fingerprint();
    if (JSON.stringify(next) === JSON.stringify(previous)) return next;
    previous = next;
  }
  return previous;
}

function routesOf(doc: { paths?: Record<string, Record<string, Operation>> }): Route[] {
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    // The API only: not the documentation's own pages, nor the built client's static files
    // (/assets/*, present once the client is built), whose unknown paths answer index.html.
    if (!path.startsWith('/api/') || path.startsWith('/api/docs')) continue;
    for (const [method, op] of Object.entries(operations)) {
      const upper = method.toUpperCase() as Method;
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(upper)) continue;
      const parameters = op.parameters ?? [];
      routes.push({
        method: upper,
        path,
        key: `${upper} ${path}`,
        params: parameters.filter((p) => p.in === 'path'),
        query: parameters.filter((p) => p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return routes;
}

/** Hostile path segments, as sent (already encoded where they should be). */
const PATH_JUNK = [
  'not-a-uuid',
  '0',
  '-1',
  '1e309',
  NIL_UUID,
  MAX_UUID,
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  `${NIL_UUID}x`,
  `${crypto.randomUUID()}%20`,
  encodeURIComponent("1' or '1'='1"),
  encodeURIComponent('../../etc/passwd'),
  '%2e%2e%2f%2e%2e%2f',
  '%00',
  `${NIL_UUID}%00`,
  encodeURIComponent(URL_JUNK),
  '%ED%A0%80', // a UTF-8 encoded surrogate: not valid UTF-8
  '%E0%A4%A',
  '%',
  '%zz',
  encodeURIComponent('{id}'),
  'null',
  '%5Bobject%20Object%5D',
  'a'.repeat(300),
  'a'.repeat(100 * 1024),
];

const QUERY_JUNK = [
  'abc',
  '',
  '-1',
  '0',
  '1.5',
  '1e309',
  '-1e309',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  '%00',
  'x%00y',
  encodeURIComponent(URL_JUNK),
  encodeURIComponent("' or 1=1 --"),
  encodeURIComponent('%_\\'),
  encodeURIComponent(BIG),
  'true',
  NIL_UUID,
  'not-a-uuid',
  '%E0%A4%A',
  '%zz',
];
/** For the date parameters besides: days that do not exist, and years PostgreSQL cannot store. */
const DATE_JUNK = [
  '2024-13-45',
  '2024-02-30',
  '2023-02-29',
  '0000-01-01',
  '0001-01-01',
  encodeURIComponent('0001-01-01T00:00+14:00'),
  '9999-12-31',
  '9999-12-31T23:59:59Z',
  encodeURIComponent('9999-12-31T23:59:59-12:00'),
  '275760-09-13',
  '2024-01-01T24:00Z',
  encodeURIComponent('2024-01-01T10:00+99:99'),
];

function urlOf(route: Route, values: Record<string, string>) {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
}

function targetOf(route: Route, values: Record<string, string>): Target {
  let target: Target = 'real';
  for (const p of route.params) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(values[p.name]!);
    } catch {
      return 'invalid';
    }
    if (decoded.length > 100 || mustReject(p.schema, decoded)) return 'invalid';
    if (!realIds(route, p.name).some((id) => id.toLowerCase() === decoded.toLowerCase())) target = 'missing';
  }
  return target;
}

/** The real ids a path parameter can take: the collection its segment names. */
function realIds(route: Route, param: string): string[] {
  const segments = route.path.split('/');
  const collection = segments[segments.indexOf(`{${param}}`) - 1] ?? '';
  return ids[collection] ?? [];
}

/** Each path parameter at a real id where there is one, else at a well-formed id of nothing. */
function realPath(route: Route, variant = 0): Record<string, string> {
  return Object.fromEntries(
    route.params.map((p) => {
      const real = realIds(route, p.name);
      const fallback = p.schema?.format === 'uuid' ? crypto.randomUUID() : 'sweep-token';
      return [p.name, real[variant % Math.max(real.length, 1)] ?? fallback];
    }),
  );
}

function missingPath(route: Route): Record<string, string> {
  return Object.fromEntries(
    route.params.map((p) => [p.name, p.schema?.format === 'uuid' ? crypto.randomUUID() : 'sweep-missing']),
  );
}

const json = (value: unknown) => ({
  payload: JSON.stringify(value),
  parsed: value,
  headers: { 'content-type': 'application/json' },
});

/** Bodies refused before any handler, whatever the route. */
function earlyBodies(): Array<Pick<Probe, 'payload' | 'headers' | 'label'>> {
  const j = { 'content-type': 'application/json' };
  const deepArray = '['.repeat(10_000) + ']'.repeat(10_000);
  const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
  // The first six are also sent signed out.
  return [
    { label: 'malformed: {', payload: '{', headers: j },
    { label: 'deep array (10,000)', payload: deepArray, headers: j },
    { label: 'deep object (10,000)', payload: deepObject, headers: j },
    { label: '__proto__ poisoning', payload: '{"__proto__":{"isSuperAdmin":true,"polluted":1}}', headers: j },
    { label: 'JSON with escaped NUL', payload: '{"name":"a\\u0000b","x\\u0000":1}', headers: j },
    { label: 'empty JSON body', payload: '', headers: j },
    { label: 'malformed: missing value', payload: '{"name":}', headers: j },
    { label: 'malformed: single quotes', payload: "{'name':'x'}", headers: j },
    { label: 'malformed: trailing garbage', payload: '{"name":"x"}garbage', headers: j },
    { label: 'malformed: unterminated string', payload: '{"name":"x', headers: j },
    { label: 'malformed: NaN', payload: '{"capacity":NaN}', headers: j },
    { label: 'malformed: raw NUL', payload: '{"name":"a\u0000b"}', headers: j },
    { label: 'malformed: invalid UTF-8', payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31]), headers: j },
    { label: 'constructor.prototype', payload: '{"constructor":{"prototype":{"polluted":1}}}', headers: j },
    { label: 'text/plain', payload: '{"name":"x"}', headers: { 'content-type': 'text/plain' } },
    { label: 'xml', payload: '<a>x</a>', headers: { 'content-type': 'application/xml' } },
    { label: 'multipart', payload: '--x\r\n\r\n--x--', headers: { 'content-type': 'multipart/form-data; boundary=x' } },
  ];
}

function buildProbes(route: Route, signedIn: boolean): Probe[] {
  const probes: Probe[] = [];
  const full = signedIn;
  const real = realPath(route);
  const add = (p: Omit<Probe, 'route'>) => probes.push({ route, ...p });
  const hasBody = route.method !== 'GET';

  // The route as it is, at its real ids (and the second mail item).
  add({ label: 'plain', url: urlOf(route, real), target: targetOf(route, real) });
  if (route.params.some((p) => realIds(route, p.name).length > 1)) {
    const second = realPath(route, 1);
    add({ label: 'plain, second id', url: urlOf(route, second), target: targetOf(route, second) });
  }

  // Hostile path parameters, one at a time, the others real.
  for (const p of route.params) {
    for (const junk of full ? PATH_JUNK : PATH_JUNK.slice(0, 8)) {
      const values = { ...real, [p.name]: junk };
      add({ label: `path ${p.name}=${junk.slice(0, 40)}`, url: urlOf(route, values), target: targetOf(route, values) });
    }
    const upper = real[p.name]!.toUpperCase();
    if (upper !== real[p.name]) {
      const values = { ...real, [p.name]: upper };
      add({ label: `path ${p.name} upper-case`, url: urlOf(route, values), target: targetOf(route, values) });
    }
  }

  // Hostile query strings: every declared parameter, then unknown and malformed ones.
  const base = urlOf(route, real);
  const target = targetOf(route, real);
  for (const q of route.query) {
    const junks = /date/i.test(q.name) ? [...QUERY_JUNK, ...DATE_JUNK] : QUERY_JUNK;
    for (const junk of full ? junks : junks.slice(0, 4)) {
      add({ label: `query ${q.name}=${junk.slice(0, 40)}`, url: `${base}?${q.name}=${junk}`, target });
    }
    add({ label: `query ${q.name} twice`, url: `${base}?${q.name}=1&${q.name}=x`, target });
    add({ label: `query ${q.name}[]`, url: `${base}?${q.name}[]=1&${q.name}[x]=2`, target });
  }
  const rawQueries = [
    '?%',
    '?%zz=1',
    '?__proto__=1&constructor=x&prototype=y',
    '?__proto__[polluted]=1',
    '?x=%00',
    `?${Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join('&')}`,
    `?limit=1&${'limit=2&'.repeat(500)}`,
    `?search=${encodeURIComponent(JUNK.replace('\ud800', ''))}&search=${BIG.slice(0, 5000)}`,
  ];
  for (const raw of full ? rawQueries : rawQueries.slice(0, 5)) {
    add({ label: `raw query ${raw.slice(0, 40)}`, url: `${base}${raw}`, target, early: raw.includes('%00') });
  }

  if (hasBody) {
    // Bodies refused before any handler, at the real ids.
    for (const b of full ? earlyBodies() : earlyBodies().slice(0, 6)) add({ ...b, url: base, target, early: true });
    // Whole bodies of the wrong type, and nothing at all.
    for (const value of [[], 'a string', 12345, null, true, {}, [{}], { unknown: 'x' }]) {
      add({ label: `body ${JSON.stringify(value)}`, url: base, target, ...json(value) });
    }
    add({ label: 'no body', url: base, target, parsed: undefined });
  }

  if (hasBody && route.body) {
    const properties = propertiesOf(route.body);
    const sampleBody = sample(route.body);
    const missing = missingPath(route);
    for (const { path, schema } of properties) {
      const { wrong, fitting } = hostileValues(schema, full);
      for (const value of [...wrong, ...fitting]) {
        const label = `${path.join('.')}=${JSON.stringify(value)?.slice(0, 40)}`;
        // Alone (other required properties missing), at the real ids.
        add({ label, url: base, target, ...json(withValue({}, path, value)) });
        // In an otherwise well-formed body: where nothing can change (no such target, a lookup).
        if (full && fitting.includes(value) && (route.params.length > 0 || LOOKUP_ONLY.has(route.key))) {
          add({
            label: `${label} (well-formed rest)`,
            url: urlOf(route, missing),
            target: targetOf(route, missing),
            ...json(withValue(sampleBody, path, value)),
          });
        }
      }
    }
    // Everything wrong at once, with unknown properties beside.
    const extras = { unknownProperty: 'x', '': null, [JUNK]: [JUNK], ['k'.repeat(1000)]: 1, 'a.b': { c: 1 } };
    const allWrong = Object.fromEntries(properties.filter((p) => p.path.length === 1).map((p) => [p.path[0], 12345]));
    add({ label: 'all wrong + extras', url: base, target, ...json({ ...allWrong, ...extras }) });
    add({
      label: 'well-formed + extras',
      url: urlOf(route, missing),
      target: targetOf(route, missing),
      ...json({ ...(sampleBody as object), ...extras }),
    });
    add({ label: 'well-formed + extras (real)', url: base, target, ...json({ ...(sampleBody as object), ...extras }) });
  }

  // Hostile headers: the organization header signed in; API keys and cookies signed out.
  const headerSets: Array<Record<string, string>> = signedIn
    ? [
        { 'x-organization-id': 'not-a-uuid' },
        { 'x-organization-id': NIL_UUID },
        { 'x-organization-id': crypto.randomUUID() },
        { 'x-organization-id': 'x'.repeat(8000) },
        { 'x-organization-id': `${ids.organizations![0]}, ${NIL_UUID}` },
      ]
    : [
        { authorization: 'Bearer pk_not_a_key' },
        { authorization: `Bearer ${'A'.repeat(8000)}` },
        { authorization: 'Basic Zm9vOmJhcg==' },
        { 'x-api-key': 'pk_\u00ff\u00fe' },
        { cookie: 'pigeonhole.sid=not-a-session' },
        { cookie: `pigeonhole.sid=${'A'.repeat(4000)}` },
        { cookie: '=;;;pigeonhole.sid;=%zz' },
      ];
  const missing = missingPath(route);
  for (const headers of headerSets) {
    const label = `headers ${JSON.stringify(headers).slice(0, 60)}`;
    if (!hasBody) add({ label, url: base, target, headers });
    else {
      const body = route.body ? json({ ...(sample(route.body) as object), unknownProperty: 1 }) : undefined;
      add({
        label,
        url: urlOf(route, missing),
        target: targetOf(route, missing),
        ...body,
        headers: { ...body?.headers, ...headers },
      });
    }
  }
  return probes;
}

/** Whether the probe must be refused (4xx), as far as its input alone tells. */
function mustFail(p: Probe): boolean {
  if (p.early || p.target === 'invalid') return true;
  if (p.route.method === 'GET' || !p.route.body) return false;
  return mustReject(p.route.body, p.parsed);
}

/** Whether the probe cannot change data: it is refused, a read, a lookup, or aimed at nothing. */
function harmless(p: Probe, signedIn: boolean): boolean {
  if (p.early || p.target === 'invalid') return true;
  if (p.route.key === LOGOUT) return !signedIn;
  if (p.route.method === 'GET') return true;
  if (p.target === 'missing' || LOOKUP_ONLY.has(p.route.key)) return true;
  return mustFail(p);
}

describe('bad-input sweep over every route of the OpenAPI document', () => {
  it('answers every hostile request with a 4xx JSON error, never stalls, and changes nothing', async () => {
    const routes = routesOf(t.app.swagger() as { paths?: Record<string, Record<string, Operation>> });
    expect(routes.length).toBeGreaterThan(50);
    // Signing out comes last; signed in, it only gets what is refused before its handler runs.
    routes.sort((a, b) => Number(a.key === LOGOUT) - Number(b.key === LOGOUT));
    const session = { cookie: admin.cookie!, 'x-organization-id': admin.organizationId! };

    const serverErrors: string[] = [];
    const notJson: string[] = [];
    const accepted: string[] = [];
    const sent = { signedOut: 0, signedIn: 0 };
    const slowest: Array<{ ms: number; what: string }> = [];
    type Sent = { p: Probe; signedIn: boolean; what: string; ms: number };
    let inFlight: Sent | undefined;
    /** The requests sent since the interval last ran: a stall is one of theirs. */
    let sinceTick: Sent[] = [];

    async function send(p: Probe, signedIn: boolean, counted = true) {
      const what = `${signedIn ? 'signed in' : 'signed out'} ${p.route.method} ${p.url.slice(0, 120)} [${p.label}]`;
      inFlight = { p, signedIn, what, ms: 0 };
      sinceTick.push(inFlight);
      const started = performance.now();
      const res = await t.app.inject({
        method: p.route.method,
        url: p.url,
        headers: { ...(signedIn ? session : {}), ...p.headers },
        ...(p.payload !== undefined ? { payload: p.payload } : {}),
      });
      inFlight.ms = performance.now() - started;
      if (!counted) return res;
      slowest.push({ ms: inFlight.ms, what });
      if (slowest.length > 50) slowest.sort((a, b) => b.ms - a.ms).splice(5);
      sent[signedIn ? 'signedIn' : 'signedOut']++;

      if (res.statusCode >= 500) serverErrors.push(`${res.statusCode} ${what}: ${res.body.slice(0, 200)}`);
      else if (res.statusCode >= 400) {
        // The unsubscribe link is opened in a browser: it answers pages, its 404 included.
        const page =
          p.route.path.startsWith('/api/unsubscribe/') && /^text\/html/.test(`${res.headers['content-type']}`);
        let message: unknown;
        try {
          message = res.json<{ message?: unknown }>().message;
        } catch {
          message = undefined;
        }
        if (!page && typeof message !== 'string') notJson.push(`${res.statusCode} ${what}: ${res.body.slice(0, 120)}`);
      } else if (mustFail(p)) accepted.push(`${res.statusCode} ${what}: ${res.body.slice(0, 120)}`);
      return res;
    }

    /**
     * Probes are built route by route as they are sent: built all at once, their 100 KB strings
     * would fill the heap, and its collections would show as stalls.
     */
    async function sweep(signedIn: boolean, onlyFirst = false) {
      for (const route of routes) {
        for (const p of buildProbes(route, signedIn)) {
          if (!harmless(p, signedIn)) continue;
          await send(p, signedIn);
          if (onlyFirst) break;
        }
      }
    }

    const before = await settledFingerprint();

    // Warm-up outside the measurement: one call of every route each way (JIT, zod, connections).
    await sweep(false, true);
    await sweep(true, true);

    // Two measures of the longest time the event loop could not turn: the delay histogram, and a
    // 5 ms interval's lateness, which also tells which requests ran meanwhile (requests that need
    // no I/O can follow one another without the loop reaching its timers).
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    let lastTick = performance.now();
    let maxGap = 0;
    let maxGapDuring = '';
    let windowMax = 0;
    const stalls: Array<Sent & { gap: number }> = [];
    const ticker = setInterval(() => {
      const now = performance.now();
      const gap = now - lastTick - 5;
      lastTick = now;
      windowMax = Math.max(windowMax, gap);
      if (gap > maxGap) {
        maxGap = gap;
        const slowestMeanwhile = sinceTick.reduce<Sent | undefined>((a, b) => (a && a.ms >= b.ms ? a : b), undefined);
        maxGapDuring = `${sinceTick.length} request(s), the slowest ${slowestMeanwhile?.what ?? '-'}`;
      }
      if (gap >= STALL_LIMIT_MS) for (const s of sinceTick) stalls.push({ ...s, gap });
      sinceTick = inFlight ? [inFlight] : [];
    }, 5);
    let longestGc = 0;
    const gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longestGc = Math.max(longestGc, entry.duration);
    });
    gcObserver.observe({ entryTypes: ['gc'] });
    histogram.enable();
    const started = performance.now();
    let seconds = 0;
    const confirmedStalls: string[] = [];
    try {
      await sweep(false);
      await sweep(true);
      seconds = (performance.now() - started) / 1000;
      histogram.disable();
      // A stall over the limit counts when its request reproduces it: each suspect is sent three
      // more times, and the shortest of its stalls is its figure. A handler that blocks does it
      // every time; a machine busy with other work (two cores, PostgreSQL, argon2) does not.
      const tick = () => new Promise((resolve) => setTimeout(resolve, 15));
      // The slowest of them first: a request that blocks the loop takes as long itself.
      const suspects = [...new Map(stalls.sort((a, b) => a.ms - b.ms).map((s) => [s.what, s])).values()].reverse();
      for (const suspect of suspects.slice(0, 20)) {
        let shortest = Infinity;
        for (let i = 0; i < 3; i++) {
          await tick();
          windowMax = 0;
          await send(suspect.p, suspect.signedIn, false);
          await tick();
          shortest = Math.min(shortest, windowMax);
        }
        if (shortest >= STALL_LIMIT_MS)
          confirmedStalls.push(`${shortest.toFixed(0)} ms (${suspect.gap.toFixed(0)} ms in the sweep) ${suspect.what}`);
      }
    } finally {
      histogram.disable();
      clearInterval(ticker);
      gcObserver.disconnect();
    }
    const histogramMaxMs = histogram.max / 1e6;
    const maxStallMs = Math.max(histogramMaxMs, maxGap);

    // Nothing in the sweep ended the session; if something did, sign in again for what follows.
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: session });
    if (me.statusCode !== 200) await admin.post('/api/login', adminLogin);
    const after = await fingerprint();
    const changed = Object.keys({ ...before, ...after })
      .filter((table) => before[table] !== after[table])
      .map((table) => `${table}: ${before[table]} -> ${after[table]}`);

    slowest.sort((a, b) => b.ms - a.ms);
    console.log(
      [
        `bad-input sweep: ${routes.length} routes, ${sent.signedOut + sent.signedIn} requests ` +
          `(${sent.signedOut} signed out, ${sent.signedIn} signed in; ${2 * routes.length} of them warm-up) ` +
          `in ${seconds.toFixed(1)} s`,
        `max event-loop stall: ${maxStallMs.toFixed(1)} ms (monitorEventLoopDelay ${histogramMaxMs.toFixed(1)} ms, ` +
          `interval probe ${maxGap.toFixed(1)} ms over ${maxGapDuring || '-'}); longest GC pause ${longestGc.toFixed(1)} ms; ` +
          `${stalls.length ? `${new Set(stalls.map((s) => s.what)).size} suspect(s) over ${STALL_LIMIT_MS} ms replayed, ${confirmedStalls.length} confirmed` : `none over ${STALL_LIMIT_MS} ms`}`,
        `slowest requests:\n  ${slowest
          .slice(0, 5)
          .map((x) => `${x.ms.toFixed(0)} ms ${x.what}`)
          .join('\n  ')}`,
        `fingerprinted tables: ${Object.keys(before).length}; left out: ${Object.keys(UNFINGERPRINTED_TABLES).join(', ')}`,
      ].join('\n'),
    );

    // One assertion, so that a failing run shows every kind of failure at once.
    expect({
      prototypePolluted: ({} as Record<string, unknown>).polluted !== undefined,
      serverErrors,
      notJson,
      accepted,
      changed,
      signedInAfterwards: me.statusCode,
      stalls: confirmedStalls,
    }).toEqual({
      prototypePolluted: false,
      serverErrors: [],
      notJson: [],
      accepted: [],
      changed: [],
      signedInAfterwards: 200,
      stalls: [],
    });
  }, 120_000);
});
