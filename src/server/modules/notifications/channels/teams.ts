import { outboundFetch } from '../../../lib/outbound';
import { isPublicUrl } from '../../../lib/public-address';
import { errorText, failure, type SendResult } from './types';

const TEAMS_TIMEOUT_MS = 10_000;

/**
 * The body a Teams Workflows webhook ("When a Teams webhook request is received", then "Post card
 * in a chat or channel") takes: a message with one Adaptive Card attachment.
 */
export function teamsMessage(card: Record<string, unknown>) {
  return {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
  };
}

/**
 * One post to a Teams Workflows webhook (decision 065), with the guard of today's webhooks: the
 * URL must resolve to public addresses only (unless ALLOW_PRIVATE_TARGETS), checked now for a
 * clear message and again inside the connection (no DNS rebinding); redirects are not followed.
 * A 4xx other than 408 and 429 is permanent (the same card to the same URL will not do better:
 * a flow deleted, a card refused); 408, 429, 5xx and network errors are retried by the outbox.
 */
export async function sendTeams(opts: {
  url: string;
  body: string;
  allowPrivateTargets: boolean;
}): Promise<SendResult> {
  if (!opts.allowPrivateTargets && !(await isPublicUrl(opts.url))) {
    return failure(
      'Teams webhook URL is not a public address (private, loopback and link-local addresses are refused)',
      {
        permanent: true,
      },
    );
  }
  const started = performance.now();
  try {
    const res = await outboundFetch(opts.allowPrivateTargets)(opts.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Pigeonhole-Teams/1.0' },
      body: opts.body,
      signal: AbortSignal.timeout(TEAMS_TIMEOUT_MS),
      redirect: 'manual',
    });
    const text = await res.text().catch(() => '');
    const latencyMs = Math.round(performance.now() - started);
    if (res.status >= 200 && res.status < 300)
      return { ok: true, providerId: null, responseStatus: res.status, latencyMs };
    const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
    // The flow's own words help the admin (e.g. a card it refused); kept short.
    const detail = text.trim().slice(0, 200);
    return failure(`Teams answered ${res.status}${detail ? `: ${detail}` : ''}`, {
      permanent,
      responseStatus: res.status,
      latencyMs,
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return failure(timedOut ? `Teams did not answer within ${TEAMS_TIMEOUT_MS / 1000} s` : `Teams: ${errorText(err)}`, {
      latencyMs: Math.round(performance.now() - started),
    });
  }
}
