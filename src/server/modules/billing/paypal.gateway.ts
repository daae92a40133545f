import {
  ApiError,
  CheckoutPaymentIntent,
  Client,
  Environment,
  OrdersController,
  type Order,
  type OrderRequest,
} from '@paypal/paypal-server-sdk';
import type { Config } from '../../config';
import {
  ProviderRefusedError,
  ProviderUnavailableError,
  type PaypalCapture,
  type PaypalGateway,
  type PaypalOrderInput,
} from './gateways';

/**
 * PayPal through its official server SDK (OAuth client credentials + Orders v2), pointed at
 * `apiUrl` (PayPal itself, or a local server that speaks its API in tests). Failures come out as
 * the provider-neutral errors of ./gateways.
 */

export type PaypalGatewayConfig = NonNullable<Config['paypal']>;
export type PaypalGatewayOptions = {
  /** Per request; a request that takes longer counts as PayPal being unavailable. */
  timeoutMs?: number;
};

/** Long enough for a slow PayPal, short enough that a person waiting on checkout gets an answer. */
const DEFAULT_TIMEOUT_MS = 10_000;
const TOKEN_PATH = '/v1/oauth2/token';
const LIVE_HOST = 'api-m.paypal.com';

type RequestBuilderFactory = ReturnType<Client['getRequestBuilderFactory']>;
type Sdk = { client: Client; orders: OrdersController };

export function createPaypalGateway(config: PaypalGatewayConfig, options: PaypalGatewayOptions = {}): PaypalGateway {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = baseOf(config.apiUrl);
  let sdk: Sdk | null = null;

  /**
   * Runs one SDK call. The SDK keeps its OAuth token as a shared promise, and once a token request
   * has failed (PayPal down, wrong secret) that rejected promise is awaited by every later call:
   * the client never recovers. So after any failure other than PayPal answering an API call, the
   * client is dropped and the next call builds a fresh one (and fetches a fresh token).
   */
  async function run<T>(call: (sdk: Sdk) => Promise<T>): Promise<T> {
    const current = (sdk ??= createSdk(config, base, timeoutMs));
    try {
      return await call(current);
    } catch (err) {
      if (!clientStillUsable(err) && sdk === current) sdk = null;
      throw providerError(err, base);
    }
  }

  return {
    clientToken: () => run(({ client }) => generateClientToken(client)),

    createOrder: (input) =>
      run(async ({ orders }) => {
        const { result } = await orders.createOrder({ body: orderRequest(input), prefer: 'return=representation' });
        return { id: result.id ?? '', status: result.status ?? '' };
      }),

    captureOrder: (orderId) =>
      run(async ({ orders }) => {
        // return=representation: the full purchase unit (custom_id, reference_id) comes back, not
        // just the capture, so the caller can check whose order PayPal captured.
        const { result } = await orders.captureOrder({ id: orderId, prefer: 'return=representation' });
        return captureOf(orderId, result);
      }),
  };
}

function createSdk(config: PaypalGatewayConfig, base: string, timeoutMs: number): Sdk {
  const PointedClient = clientPointedAt(base);
  const client = new PointedClient({
    // Requests go to `apiUrl` either way (see clientPointedAt); the environment still matches it.
    environment: new URL(config.apiUrl).hostname === LIVE_HOST ? Environment.Production : Environment.Sandbox,
    timeout: timeoutMs,
    clientCredentialsAuthCredentials: { oAuthClientId: config.clientId, oAuthClientSecret: config.clientSecret },
    // At most one retry, one second later. The SDK retries only GET and PUT by default, so the
    // POSTs that create or capture are never sent twice.
    httpClientOptions: { retryConfig: { maxNumberOfRetries: 1, retryInterval: 1, maximumRetryWaitTime: 2 } },
  });
  return { client, orders: new OrdersController(client) };
}

/**
 * The SDK hard-codes its base URLs (api-m.paypal.com / api-m.sandbox.paypal.com, `getBaseUri` in
 * its client.js) and has no option to change them. Every request, the OAuth token request
 * included, is built by the factory `getRequestBuilderFactory()` answers, so a subclass that
 * wraps that factory can move each request to `apiUrl` before it is sent.
 *
 * The class is made per URL (a closure) rather than taking the URL as a field: `Client`'s own
 * constructor already calls `getRequestBuilderFactory()` (for the OAuth controller), before a
 * subclass's fields exist.
 */
function clientPointedAt(base: string): typeof Client {
  return class PointedClient extends Client {
    override getRequestBuilderFactory(): RequestBuilderFactory {
      const factory = super.getRequestBuilderFactory();
      return (...args) => {
        const builder = factory(...args);
        builder.interceptRequest((request) => ({ ...request, url: rebase(request.url, base) }));
        return builder;
      };
    }
  };
}

const baseOf = (apiUrl: string) => apiUrl.replace(/\/+$/, '');

/** `https://api-m.sandbox.paypal.com/v2/checkout/orders?x=1` -> `<base>/v2/checkout/orders?x=1`. */
function rebase(url: string, base: string): string {
  const parsed = new URL(url);
  return `${base}${parsed.pathname}${parsed.search}`;
}

/**
 * A client token for PayPal's JS SDK. The server SDK has no call for v1/identity/generate-token,
 * so this builds the request with the SDK's own request builder: same base URL, OAuth token,
 * timeout and errors as every other call.
 */
async function generateClientToken(client: Client): Promise<string> {
  const request = client.getRequestBuilderFactory()('POST', '/v1/identity/generate-token');
  request.acceptJson();
  request.json({});
  request.authenticate([{ oauth2: true }]);
  const { result } = await request.callAsText();
  const token = (JSON.parse(result) as { client_token?: unknown }).client_token;
  if (typeof token !== 'string' || !token) throw new Error('PayPal answered generate-token without a client_token');
  return token;
}

function orderRequest(input: PaypalOrderInput): OrderRequest {
  return {
    intent: CheckoutPaymentIntent.Capture,
    purchaseUnits: [
      {
        referenceId: input.referenceId,
        customId: input.customId,
        description: input.description,
        amount: { currencyCode: input.currency, value: centsToDecimal(input.amount) },
      },
    ],
  };
}

function captureOf(orderId: string, order: Order): PaypalCapture {
  const unit = order.purchaseUnits?.[0];
  const capture = unit?.payments?.captures?.[0];
  return {
    orderId: order.id ?? orderId,
    status: order.status ?? 'UNKNOWN',
    captureId: capture?.id ?? null,
    captureStatus: capture?.status ?? null,
    amount: capture?.amount ? decimalToCents(capture.amount.value) : null,
    currency: capture?.amount?.currencyCode ?? null,
    // The unit carries custom_id in a full representation; the capture repeats it.
    customId: unit?.customId ?? capture?.customId ?? null,
    referenceId: unit?.referenceId ?? null,
  };
}

/** 17500 -> "175.00". Integer arithmetic only: a float would turn some amounts into "174.99…". */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Not an amount in cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** "175.00", "175.5" or "175" -> 17500, 17550, 17500; null for anything else (e.g. "1.005", "-1"). */
export function decimalToCents(value: string): number | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** PayPal answered an API call with the token accepted: the client (and its token) can stay. */
function clientStillUsable(err: unknown): boolean {
  return err instanceof ApiError && err.statusCode !== 401 && !err.request.url.endsWith(TOKEN_PATH);
}

/**
 * Unreachable, timed out, rate limited or 5xx: nothing was done, try later. Any other 4xx: PayPal
 * refused, with its issue code (ORDER_NOT_APPROVED, ORDER_ALREADY_CAPTURED, invalid_client, …).
 */
function providerError(err: unknown, base: string): ProviderUnavailableError | ProviderRefusedError {
  if (!(err instanceof ApiError)) return new ProviderUnavailableError('paypal', err);
  // The SDK's error holds the request as first built, with its own base URL; log where it went.
  err.request = { ...err.request, url: rebase(err.request.url, base) };
  const status = err.statusCode;
  if (status >= 500 || status === 429 || status === 408) return new ProviderUnavailableError('paypal', err);
  const body = errorBody(err);
  const code = body.details?.[0]?.issue ?? body.name ?? body.error ?? 'invalid_request';
  if (err.request.url.endsWith(TOKEN_PATH)) {
    return new ProviderRefusedError(
      'paypal',
      code,
      `PayPal refused the client credentials (PAYPAL_CLIENT_ID / PAYPAL_CLIENT_SECRET): ${body.error_description ?? code}`,
    );
  }
  return new ProviderRefusedError('paypal', code, body.message ?? body.error_description ?? err.message);
}

type PaypalErrorBody = {
  name?: string;
  message?: string;
  details?: Array<{ issue?: string }>;
  /** OAuth errors have these instead. */
  error?: string;
  error_description?: string;
};

/** The SDK parses the body only for the statuses a call declares; parse it here for the rest. */
function errorBody(err: ApiError): PaypalErrorBody {
  if (typeof err.result === 'object' && err.result !== null) return err.result as PaypalErrorBody;
  if (typeof err.body !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(err.body);
    return typeof parsed === 'object' && parsed !== null ? (parsed as PaypalErrorBody) : {};
  } catch {
    return {};
  }
}
