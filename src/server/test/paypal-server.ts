import crypto from 'node:crypto';
import { startFakeProvider, type JsonReply, type ProviderRequest } from './fake-provider-server';

/**
 * A real HTTP server on loopback speaking PayPal's OAuth (client credentials), identity
 * (generate-token) and Orders v2 (create, show, capture) in PayPal's shapes, so the official server
 * SDK runs against it unchanged. Tests play the buyer with `approve` and can make a capture come
 * back not completed or for another amount with `setCaptureOutcome`.
 */

/** Its body: parsed JSON, or the form fields for the token request. */
type PaypalRequest = ProviderRequest<unknown>;

type PaypalMoney = { currency_code: string; value: string };
type PaypalCaptureObject = {
  id: string;
  status: string;
  amount: PaypalMoney;
  final_capture: boolean;
  custom_id?: string;
  create_time: string;
  update_time: string;
};
type PaypalPurchaseUnit = {
  reference_id: string;
  custom_id?: string;
  description?: string;
  amount: PaypalMoney;
  payments?: { captures: PaypalCaptureObject[] };
};
type PaypalOrder = {
  id: string;
  intent: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  purchase_units: PaypalPurchaseUnit[];
  payer?: Record<string, unknown>;
  create_time: string;
  update_time: string;
  links: Array<{ href: string; rel: string; method: string }>;
};
/** What the next capture of an order reports instead of a plain success. */
export type CaptureOutcome = { status?: string; amount?: string; currency?: string };

type Reply = JsonReply;
type State = {
  url: string;
  basicAuth: string;
  tokens: Set<string>;
  orders: Map<string, PaypalOrder>;
  outcomes: Map<string, CaptureOutcome>;
};

export async function startPaypalServer(credentials: { clientId: string; clientSecret: string }) {
  const state: State = {
    url: '',
    basicAuth: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`,
    tokens: new Set(),
    orders: new Map(),
    outcomes: new Map(),
  };
  const server = await startFakeProvider<unknown>({
    body: (req, raw) => parseBody(req.headers['content-type'], raw),
    answer: (request) => answer(state, request),
    outage: () => paypalError(503, 'SERVICE_UNAVAILABLE', 'Service Unavailable.'),
    headers: () => ({ 'paypal-debug-id': randomId(13) }),
  });
  state.url = server.url;
  return {
    url: state.url,
    requests: server.requests,
    orders: state.orders,
    /** The buyer approved the order in PayPal's window: it can now be captured. */
    approve(orderId: string) {
      const order = state.orders.get(orderId);
      if (!order || order.status === 'COMPLETED') throw new Error(`no order ${orderId} awaiting approval`);
      order.status = 'APPROVED';
      order.payer = { name: { given_name: 'Test', surname: 'Buyer' }, email_address: 'buyer@example.com' };
    },
    /** The capture of `orderId` reports this status, amount (decimal string) or currency. */
    setCaptureOutcome(orderId: string, outcome: CaptureOutcome) {
      state.outcomes.set(orderId, outcome);
    },
    /** While down, every request (the OAuth one too) is answered 503 as by a PayPal outage. */
    setDown: server.setDown,
    close: server.close,
  };
}

function answer(state: State, req: PaypalRequest): Reply {
  if (req.method === 'POST' && req.path === '/v1/oauth2/token') return issueToken(state, req);
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!token || !state.tokens.has(token)) {
    return { status: 401, body: { error: 'invalid_token', error_description: 'Token signature verification failed' } };
  }
  for (const [method, pattern, handle] of ROUTES) {
    const match = req.method === method ? pattern.exec(req.path) : null;
    if (match) return handle(state, req.body, decodeURIComponent(match[1] ?? ''));
  }
  return paypalError(404, 'NOT_FOUND', 'The specified resource does not exist.');
}

const ROUTES: Array<[string, RegExp, (state: State, body: unknown, id: string) => Reply]> = [
  ['POST', /^\/v1\/identity\/generate-token$/, () => ({ status: 200, body: clientToken() })],
  ['POST', /^\/v2\/checkout\/orders$/, createOrder],
  ['GET', /^\/v2\/checkout\/orders\/([^/]+)$/, (s, _, id) => showOrder(s, id)],
  ['POST', /^\/v2\/checkout\/orders\/([^/]+)\/capture$/, (s, _, id) => captureOrder(s, id)],
];

function issueToken(state: State, req: PaypalRequest): Reply {
  if (req.headers.authorization !== state.basicAuth) {
    return { status: 401, body: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
  }
  const grant = (req.body as Record<string, unknown> | null)?.grant_type;
  if (grant !== 'client_credentials') {
    return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' } };
  }
  const accessToken = `A21AA${randomId(40)}`;
  state.tokens.add(accessToken);
  return {
    status: 200,
    body: {
      scope: 'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/checkout/one-click',
      access_token: accessToken,
      token_type: 'Bearer',
      app_id: 'APP-80W284485P519543T',
      expires_in: 32400,
      nonce: `${new Date().toISOString()}${randomId(20)}`,
    },
  };
}

function clientToken() {
  return { client_token: Buffer.from(JSON.stringify({ token: randomId(24) })).toString('base64'), expires_in: 3600 };
}

function createOrder(state: State, body: unknown): Reply {
  const problem = orderProblem(body);
  if (problem) return paypalError(400, 'INVALID_REQUEST', 'Request is not well-formed.', problem);
  const request = body as { intent: string; purchase_units: PaypalPurchaseUnit[] };
  const id = randomId(17).toUpperCase();
  const now = new Date().toISOString();
  const order: PaypalOrder = {
    id,
    intent: request.intent,
    status: 'CREATED',
    purchase_units: request.purchase_units.map((unit) => ({ ...unit, reference_id: unit.reference_id ?? 'default' })),
    create_time: now,
    update_time: now,
    links: [
      { href: `${state.url}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
      { href: `${state.url}/checkoutnow?token=${id}`, rel: 'approve', method: 'GET' },
      { href: `${state.url}/v2/checkout/orders/${id}`, rel: 'update', method: 'PATCH' },
      { href: `${state.url}/v2/checkout/orders/${id}/capture`, rel: 'capture', method: 'POST' },
    ],
  };
  state.orders.set(id, order);
  return { status: 201, body: order };
}

/** The first thing PayPal would refuse in an order request, as its issue code; null when fine. */
function orderProblem(body: unknown): string | null {
  const request = body as { intent?: unknown; purchase_units?: Array<{ amount?: Partial<PaypalMoney> }> } | null;
  if (request?.intent !== 'CAPTURE' && request?.intent !== 'AUTHORIZE') return 'INVALID_PARAMETER_VALUE';
  const units = request.purchase_units;
  if (!Array.isArray(units) || units.length === 0) return 'MISSING_REQUIRED_PARAMETER';
  const amountOk = (m?: Partial<PaypalMoney>) => /^[A-Z]{3}$/.test(m?.currency_code ?? '') && isDecimal(m?.value);
  return units.every((unit) => amountOk(unit.amount)) ? null : 'INVALID_PARAMETER_VALUE';
}

function showOrder(state: State, id: string): Reply {
  const order = state.orders.get(id);
  return order ? { status: 200, body: order } : noSuchOrder();
}

function captureOrder(state: State, id: string): Reply {
  const order = state.orders.get(id);
  if (!order) return noSuchOrder();
  if (order.status === 'COMPLETED') {
    return paypalError(
      422,
      'UNPROCESSABLE_ENTITY',
      'The requested action could not be performed.',
      'ORDER_ALREADY_CAPTURED',
    );
  }
  if (order.status !== 'APPROVED') {
    return paypalError(
      422,
      'UNPROCESSABLE_ENTITY',
      'The requested action could not be performed.',
      'ORDER_NOT_APPROVED',
    );
  }
  const capture = captureFor(order.purchase_units[0]!, state.outcomes.get(id) ?? {});
  order.purchase_units[0] = { ...order.purchase_units[0]!, payments: { captures: [capture] } };
  // A pending capture still completes the order (the money follows); a declined one leaves it
  // approved, to be paid another way.
  if (capture.status === 'COMPLETED' || capture.status === 'PENDING') order.status = 'COMPLETED';
  order.update_time = capture.update_time;
  return { status: 201, body: order };
}

function captureFor(unit: PaypalPurchaseUnit, outcome: CaptureOutcome): PaypalCaptureObject {
  const now = new Date().toISOString();
  return {
    id: randomId(17).toUpperCase(),
    status: outcome.status ?? 'COMPLETED',
    amount: {
      currency_code: outcome.currency ?? unit.amount.currency_code,
      value: outcome.amount ?? unit.amount.value,
    },
    final_capture: true,
    ...(unit.custom_id !== undefined ? { custom_id: unit.custom_id } : {}),
    create_time: now,
    update_time: now,
  };
}

function noSuchOrder(): Reply {
  return paypalError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', 'INVALID_RESOURCE_ID');
}

/** PayPal's error envelope: the SDK's CustomError carries it, `details[0].issue` says why. */
function paypalError(status: number, name: string, message: string, issue?: string): Reply {
  return {
    status,
    body: { name, message, debug_id: randomId(13), ...(issue ? { details: [{ issue, description: issue }] } : {}) },
  };
}

function parseBody(contentType: string | undefined, raw: string): unknown {
  if (!raw) return null;
  if (contentType?.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

const isDecimal = (value: unknown) => typeof value === 'string' && /^\d+(\.\d{2})?$/.test(value);
const randomId = (length: number) =>
  crypto.randomBytes(length).toString('base64url').replace(/[-_]/g, '0').slice(0, length);
