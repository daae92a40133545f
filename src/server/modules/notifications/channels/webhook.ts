import { Webhook } from 'standardwebhooks';
import { outboundFetch } from '../../../lib/outbound';
import { isPublicUrl } from '../../../lib/public-address';
import { errorText, failure, type SendResult } from './types';

const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * The Standard Webhooks signature, by the convention's own library (`standardwebhooks`, the one
 * receivers verify with): 'v1,' + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` keyed with
 * the base64 part of the 'whsec_' secret.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
}

/**
 * One delivery attempt. webhook-id is the job id, the same on every retry, so a receiver can
 * drop a delivery it has already processed. The URL must resolve to public addresses only
 * (unless ALLOW_PRIVATE_TARGETS): checked now for a clear message, and again inside the
 * connection, which goes to the address checked (no DNS rebinding); redirects are not followed
 * (a 3xx is a failure), so a public URL cannot bounce the call to a private one.
 */
export async function sendWebhook(opts: {
  url: string;
  id: string;
  secret: string | undefined;
  body: string;
  allowPrivateTargets: boolean;
}): Promise<SendResult> {
  if (!opts.allowPrivateTargets && !(await isPublicUrl(opts.url))) {
    return failure('Webhook URL is not a public address (private, loopback and link-local addresses are refused)', {
      permanent: true,
    });
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Pigeonhole-Webhooks/1.0',
    'webhook-id': opts.id,
    'webhook-timestamp': String(timestamp),
  };
  if (opts.secret) {
    try {
      headers['webhook-signature'] = signWebhook(opts.secret, opts.id, timestamp, opts.body);
    } catch {
      // Only a secret that is not base64 gets here (the server generates them, so a damaged row).
      return failure('The webhook signing secret is not valid: rotate it on the integration', { permanent: true });
    }
  }
  const started = performance.now();
  try {
    const res = await outboundFetch(opts.allowPrivateTargets)(opts.url, {
      method: 'POST',
      headers,
      body: opts.body,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      redirect: 'manual',
    });
    // The body is not needed, but reading it (bounded by the timeout) frees the connection.
    await res.arrayBuffer().catch(() => undefined);
    const latencyMs = Math.round(performance.now() - started);
    if (res.status >= 200 && res.status < 300)
      return { ok: true, providerId: null, responseStatus: res.status, latencyMs };
    // 410 Gone: the receiver says the endpoint is retired; anything else may recover.
    return failure(`Webhook receiver answered ${res.status}`, {
      permanent: res.status === 410,
      responseStatus: res.status,
      latencyMs,
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return failure(
      timedOut ? `Webhook receiver did not answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : `Webhook: ${errorText(err)}`,
      { latencyMs: Math.round(performance.now() - started) },
    );
  }
}
