import crypto from 'node:crypto';
import Stripe from 'stripe';
import { startFakeProvider, type JsonReply, type ProviderRequest } from './fake-provider-server';

/**
 * A real HTTP server on loopback speaking the parts of Stripe's REST API that Pigeonhole uses
 * (Checkout Sessions, billing portal sessions, customers, subscriptions), form-encoded as Stripe
 * takes it and answering in Stripe's shapes, so the official SDK runs against it unchanged.
 */

/** Its body: the form body (or query, for GET) with nested keys unfolded: `line_items[0][quantity]` -> `line_items[0].quantity`. */
type StripeRequest = ProviderRequest<Record<string, unknown>>;

type StripeObject = Record<string, unknown> & { id: string };
type Reply = JsonReply;
type State = {
  url: string;
  secretKey: string | undefined;
  sessions: Map<string, StripeObject>;
  customers: Set<string>;
  subscriptions: Map<string, StripeObject>;
};

/**
 * `secretKey`: the only key accepted; by default any test key (`sk_test_…`), since each test app
 * picks its own.
 */
export async function startStripeServer(options: { secretKey?: string } = {}) {
  const state: State = {
    url: '',
    secretKey: options.secretKey,
    sessions: new Map(),
    customers: new Set(),
    subscriptions: new Map(),
  };
  const server = await startFakeProvider<Record<string, unknown>>({
    body: (req, raw, url) => parseStripeForm(req.method === 'GET' ? url.search.slice(1) : raw),
    answer: (request) => answer(state, request),
    outage: () => stripeError(503, 'api_error', 'Stripe is down (test server)'),
    headers: () => ({ 'request-id': `req_${randomId()}` }),
  });
  state.url = server.url;
  return {
    url: state.url,
    requests: server.requests,
    sessions: state.sessions,
    customers: state.customers,
    subscriptions: state.subscriptions,
    /** A customer the portal may be opened for (as if created by an earlier checkout). */
    addCustomer(id: string) {
      state.customers.add(id);
    },
    /** A subscription GET /v1/subscriptions/:id answers. */
    addSubscription(subscription: StripeObject) {
      state.subscriptions.set(subscription.id, { object: 'subscription', ...subscription });
    },
    /** While down, every request is answered 503 as by a Stripe outage. */
    setDown: server.setDown,
    close: server.close,
  };
}

function answer(state: State, req: StripeRequest): Reply {
  if (!authorized(state, req.headers.authorization)) {
    return stripeError(401, 'invalid_request_error', 'Invalid API Key provided');
  }
  for (const [method, pattern, handle] of ROUTES) {
    const match = req.method === method ? pattern.exec(req.path) : null;
    if (match) return handle(state, req.body, decodeURIComponent(match[1] ?? ''));
  }
  return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${req.path})`);
}

const ROUTES: Array<[string, RegExp, (state: State, body: Record<string, unknown>, id: string) => Reply]> = [
  ['POST', /^\/v1\/checkout\/sessions$/, createSession],
  ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, (s, _, id) => found(s.sessions.get(id), 'checkout.session', id)],
  ['POST', /^\/v1\/billing_portal\/sessions$/, createPortalSession],
  ['POST', /^\/v1\/customers$/, createCustomer],
  ['GET', /^\/v1\/subscriptions\/([^/]+)$/, (s, _, id) => found(s.subscriptions.get(id), 'subscription', id)],
];

function authorized(state: State, header: string | undefined): boolean {
  const key = /^Bearer (.+)$/.exec(header ?? '')?.[1];
  if (!key) return false;
  return state.secretKey ? key === state.secretKey : key.startsWith('sk_test_');
}

function createSession(state: State, body: Record<string, unknown>): Reply {
  const missing = ['mode', 'success_url', 'line_items'].find((key) => body[key] === undefined);
  if (missing)
    return stripeError(400, 'invalid_request_error', `Missing required param: ${missing}.`, 'parameter_missing');
  // Any customer id is taken here (tests set customers through webhooks without creating them);
  // the portal is where an unknown customer is refused.
  const customer = typeof body.customer === 'string' ? body.customer : null;
  const id = `cs_test_${randomId()}`;
  const session: StripeObject = {
    id,
    object: 'checkout.session',
    url: `${state.url}/pay/${id}`,
    mode: body.mode,
    status: 'open',
    payment_status: 'unpaid',
    client_reference_id: body.client_reference_id ?? null,
    metadata: body.metadata ?? {},
    customer,
    customer_email: body.customer_email ?? null,
    subscription: null,
    success_url: body.success_url,
    cancel_url: body.cancel_url ?? null,
    currency: 'usd',
    amount_total: amountTotal(body.line_items),
    created: nowSeconds(),
    expires_at: nowSeconds() + 24 * 3600,
    livemode: false,
  };
  state.sessions.set(id, session);
  return { status: 200, body: session };
}

function createPortalSession(state: State, body: Record<string, unknown>): Reply {
  const customer = String(body.customer ?? '');
  if (!state.customers.has(customer)) return noSuchCustomer(customer);
  return {
    status: 200,
    body: {
      id: `bps_${randomId()}`,
      object: 'billing_portal.session',
      customer,
      return_url: body.return_url ?? null,
      url: `${state.url}/portal/${customer}`,
      created: nowSeconds(),
      livemode: false,
    },
  };
}

function createCustomer(state: State, body: Record<string, unknown>): Reply {
  const id = `cus_${randomId()}`;
  state.customers.add(id);
  return {
    status: 200,
    body: {
      id,
      object: 'customer',
      email: body.email ?? null,
      name: body.name ?? null,
      metadata: body.metadata ?? {},
      created: nowSeconds(),
      livemode: false,
    },
  };
}

function found(object: StripeObject | undefined, kind: string, id: string): Reply {
  if (object) return { status: 200, body: object };
  return stripeError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing');
}

function noSuchCustomer(id: string): Reply {
  return stripeError(404, 'invalid_request_error', `No such customer: '${id}'`, 'resource_missing');
}

/** Stripe's error envelope; the SDK turns it into its typed errors by `type`, status and `code`. */
function stripeError(status: number, type: string, message: string, code?: string): Reply {
  return { status, body: { error: { type, message, ...(code ? { code } : {}) } } };
}

function amountTotal(lineItems: unknown): number {
  if (!Array.isArray(lineItems)) return 0;
  return lineItems.reduce((sum: number, item: { quantity?: string; price_data?: { unit_amount?: string } }) => {
    return sum + Number(item.quantity ?? 1) * Number(item.price_data?.unit_amount ?? 0);
  }, 0);
}

/**
 * Stripe's form encoding: `a[b][0][c]=1` -> `{ a: { b: [{ c: '1' }] } }`. Values stay strings, as
 * Stripe receives them; objects whose keys are exactly 0..n-1 become arrays.
 */
function parseStripeForm(form: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(form)) {
    const [head = '', ...rest] = key.split('[');
    const path = [head, ...rest.map((part) => part.replace(/\]$/, ''))];
    let node = root;
    for (const segment of path.slice(0, -1)) {
      const next = node[segment];
      node = (typeof next === 'object' && next !== null ? next : (node[segment] = {})) as Record<string, unknown>;
    }
    node[path.at(-1)!] = value;
  }
  return arraysOf(root) as Record<string, unknown>;
}

function arraysOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, arraysOf(v)] as const);
  const indexed = entries.length > 0 && entries.every(([k], i) => k === String(i));
  return indexed ? entries.map(([, v]) => v) : Object.fromEntries(entries);
}

/**
 * A Stripe event as webhooks deliver it. `created` (Unix seconds) orders events; `id` makes each
 * delivery unique unless given.
 */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; created?: number; apiVersion?: string } = {},
) {
  return {
    id: options.id ?? `evt_${randomId()}`,
    object: 'event' as const,
    type,
    created: options.created ?? nowSeconds(),
    data: { object },
    api_version: options.apiVersion ?? Stripe.API_VERSION,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  };
}

/** The Stripe-Signature header for `payload`, computed by the SDK as Stripe would sign it. */
export function signStripePayload(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const randomId = () => crypto.randomBytes(12).toString('base64url').replace(/[-_]/g, 'x');
