import {
  LogLevel,
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
  WebClient,
  type Block,
  type KnownBlock,
} from '@slack/web-api';
import { errorText, failure, type SendResult } from './types';

/** How long one call to Slack may take before the attempt counts as failed (and is retried). */
const SLACK_TIMEOUT_MS = 15_000;

/**
 * The token errors after which no call with it can work until an admin connects the workspace
 * again: the integration is marked as needing attention and its later messages are skipped.
 */
export const SLACK_TOKEN_ERRORS: readonly string[] = [
  'invalid_auth',
  'token_revoked',
  'account_inactive',
  'not_authed',
  'token_expired',
  'no_permission',
  'missing_scope',
  'team_access_not_granted',
];

/** How a token error reads in the outbox (the sender recognises it to mark the integration). */
export const SLACK_TOKEN_REFUSED = 'Slack refused the token';

/** Slack's answers that a later attempt may not get (its own trouble): retried with the outbox's backoff. */
const SLACK_TRANSIENT_ERRORS: readonly string[] = [
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'ratelimited',
];

/**
 * A Web API client on one bot token. The outbox retries (decision 010): the SDK's own retries
 * are off, and a 429 rejects at once with Slack's Retry-After rather than the SDK sleeping on it
 * inside a worker slot.
 */
export function slackClient(apiUrl: string, token: string): WebClient {
  return new WebClient(token, {
    slackApiUrl: apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: SLACK_TIMEOUT_MS,
    logLevel: LogLevel.ERROR,
    // Only our configured base: a method name can never send the token elsewhere.
    allowAbsoluteUrls: false,
  });
}

/** What went wrong in a call, in the outbox's terms. */
export type SlackFailure =
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'token'; error: string }
  | { kind: 'platform'; error: string; transient: boolean }
  | { kind: 'http'; status: number }
  | { kind: 'network'; message: string };

export function classifySlackError(err: unknown): SlackFailure {
  if (err instanceof WebAPIRateLimitedError) return { kind: 'rate_limited', retryAfterSeconds: err.retryAfter };
  if (err instanceof WebAPIPlatformError) {
    const error = String(err.data.error ?? 'unknown_error');
    if (SLACK_TOKEN_ERRORS.includes(error)) return { kind: 'token', error };
    return { kind: 'platform', error, transient: SLACK_TRANSIENT_ERRORS.includes(error) };
  }
  if (err instanceof WebAPIHTTPError) return { kind: 'http', status: err.statusCode };
  if (err instanceof WebAPIRequestError) return { kind: 'network', message: errorText(err.original ?? err) };
  return { kind: 'network', message: errorText(err) };
}

/** Who a token is: the workspace and the bot, as auth.test answers. */
export type SlackIdentity = { teamId: string; teamName: string; botUserId: string | null };

/** auth.test: the token's workspace, or the reason it does not work. */
export async function slackAuthTest(
  apiUrl: string,
  token: string,
): Promise<{ ok: true; identity: SlackIdentity } | { ok: false; failure: SlackFailure }> {
  try {
    const res = await slackClient(apiUrl, token).auth.test();
    return {
      ok: true,
      identity: { teamId: res.team_id ?? '', teamName: res.team ?? '', botUserId: res.user_id ?? null },
    };
  } catch (err) {
    return { ok: false, failure: classifySlackError(err) };
  }
}

/** conversations.list, every page (a workspace's channels, archived ones left out). */
export async function slackChannels(
  apiUrl: string,
  token: string,
): Promise<Array<{ id: string; name: string; isPrivate: boolean; isMember: boolean }>> {
  const client = slackClient(apiUrl, token);
  const out: Array<{ id: string; name: string; isPrivate: boolean; isMember: boolean }> = [];
  let cursor: string | undefined;
  // A bounded walk: 20 pages of 200 channels is more than a mailroom's workspace has.
  for (let page = 0; page < 20; page++) {
    const res = await client.conversations.list({
      types: 'public_channel,private_channel',
      exclude_archived: true,
      limit: 200,
      ...(cursor ? { cursor } : {}),
    });
    for (const c of res.channels ?? []) {
      if (!c.id || !c.name) continue;
      out.push({ id: c.id, name: c.name, isPrivate: !!c.is_private, isMember: !!c.is_member });
    }
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Slack's mrkdwn treats &, < and > as markup: escaped, a message's text stays text. */
export const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export type SlackMessage = { text: string; blocks?: Array<Block | KnownBlock> };

/** One chat.postMessage, reported as the outbox's SendResult (providerId: channel and ts). */
export async function postSlackMessage(client: WebClient, channel: string, message: SlackMessage): Promise<SendResult> {
  const started = performance.now();
  try {
    const res = await client.chat.postMessage({
      channel,
      text: message.text,
      ...(message.blocks ? { blocks: message.blocks } : {}),
      unfurl_links: false,
    });
    return {
      ok: true,
      providerId: res.ts ? `${res.channel ?? channel}:${res.ts}` : null,
      responseStatus: 200,
      latencyMs: Math.round(performance.now() - started),
    };
  } catch (err) {
    return slackFailureResult(classifySlackError(err), Math.round(performance.now() - started));
  }
}

/**
 * A failed call as the outbox records it: a 429 waits Slack's Retry-After and does not count as
 * an attempt; a token error, and any other answer Slack will repeat, fails for good; Slack's own
 * trouble and the network are retried with the backoff.
 */
export function slackFailureResult(f: SlackFailure, latencyMs: number | null): SendResult {
  switch (f.kind) {
    case 'rate_limited':
      return failure(`Slack rate limit: retrying after ${f.retryAfterSeconds} s`, {
        responseStatus: 429,
        latencyMs,
        retryAfterMs: Math.max(1, f.retryAfterSeconds) * 1000,
      });
    case 'token':
      return failure(`${SLACK_TOKEN_REFUSED} (${f.error})`, { permanent: true, responseStatus: 200, latencyMs });
    case 'platform':
      return failure(`Slack answered ${f.error}`, { permanent: !f.transient, responseStatus: 200, latencyMs });
    case 'http':
      return failure(`Slack answered HTTP ${f.status}`, {
        permanent: f.status >= 400 && f.status < 500,
        responseStatus: f.status,
        latencyMs,
      });
    case 'network':
      return failure(`Slack unreachable: ${f.message}`, { latencyMs });
  }
}
