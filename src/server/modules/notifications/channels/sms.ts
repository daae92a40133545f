import { outboundFetch } from '../../../lib/outbound';
import { errorText, failure, type SendResult } from './types';

export type SmsAccount = { baseUrl: string; accountSid: string; authToken: string; fromNumber: string };

const SMS_TIMEOUT_MS = 15_000;

/**
 * Twilio's Messages API: POST {base}/2010-04-01/Accounts/{sid}/Messages.json, form-encoded
 * To, From, Body, HTTP basic auth with the account SID and auth token. A 4xx other than 429
 * (bad number, wrong credentials, unverified sender) will answer the same on every retry, so it
 * fails the message at once; 429, 5xx and network errors are retried with backoff.
 */
export async function sendSms(
  account: SmsAccount,
  to: string,
  body: string,
  allowPrivateTargets: boolean,
): Promise<SendResult> {
  const url = `${account.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}/Messages.json`;
  const started = performance.now();
  try {
    // The provider's address may be an organization's choice: guarded like a webhook.
    const res = await outboundFetch(allowPrivateTargets)(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ To: to, From: account.fromNumber, Body: body }).toString(),
      signal: AbortSignal.timeout(SMS_TIMEOUT_MS),
      redirect: 'manual',
    });
    const text = await res.text();
    const latencyMs = Math.round(performance.now() - started);
    let json: { sid?: string; message?: string; code?: number } = {};
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      // not JSON: the status alone tells
    }
    if (res.status >= 200 && res.status < 300) {
      return { ok: true, providerId: json.sid ?? null, responseStatus: res.status, latencyMs };
    }
    const permanent = res.status >= 400 && res.status < 500 && res.status !== 429;
    return failure(`SMS provider answered ${res.status}${json.message ? `: ${json.message}` : ''}`, {
      permanent,
      responseStatus: res.status,
      latencyMs,
    });
  } catch (err) {
    return failure(`SMS provider unreachable: ${errorText(err)}`, {
      latencyMs: Math.round(performance.now() - started),
    });
  }
}
