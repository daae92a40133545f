import type {
  AddExpectedPackagesBody,
  ExpectedPackageList,
  NotifyBy,
  PortalItem,
  PortalItemPage,
  PortalMe,
  Proxy,
  RecipientPickupCode,
} from '@contract';
import { ApiError } from '@/lib/api';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A refusal for going too fast (429): the server's sentence and how many seconds to wait. */
export type RateRefusal = { message: string; retryAfterSeconds: number };
const rateRefusalListeners = new Set<(refusal: RateRefusal) => void>();

/**
 * Called with every 429 any call of the page gets (holds, expected packages, proxies...), so the
 * page can say it plainly in one place whichever section was refused. Answers the unsubscribe.
 */
export function onRateRefusal(listener: (refusal: RateRefusal) => void): () => void {
  rateRefusalListeners.add(listener);
  return () => void rateRefusalListeners.delete(listener);
}

/**
 * The recipient's page talks to /api/portal/* with its own cookie only: no organization header,
 * nothing of the staff app's query cache.
 */
async function call<T>(method: Method, url: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const text = await res.text();
  if (!res.ok) {
    const err = new ApiError(res.status, text, res.statusText);
    if (res.status === 429) {
      const retryAfterSeconds = Math.max(1, Number(res.headers.get('retry-after')) || 60);
      const refusal = {
        message: messageOf(err, 'Too many changes at once. Wait a minute, then try again.'),
        retryAfterSeconds,
      };
      for (const listener of rateRefusalListeners) listener(refusal);
    }
    throw err;
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The sentence the server sent with a refusal, or a plain fallback. */
export const messageOf = (err: unknown, fallback = 'Something went wrong. Please try again.') =>
  err instanceof ApiError && err.reply ? err.reply.message : fallback;

export const portalApi = {
  requestLink: (address: string) => call<{ message: string }>('POST', '/api/portal/links', { address }),
  open: (token: string) => call<PortalMe>('POST', '/api/portal/session', { token }),
  signOut: () => call<void>('DELETE', '/api/portal/session'),
  me: () => call<PortalMe>('GET', '/api/portal/me'),
  newCode: () => call<RecipientPickupCode>('POST', '/api/portal/pickup-code'),
  setNotifyBy: (notifyBy: NotifyBy) => call<PortalMe>('PUT', '/api/portal/preferences', { notifyBy }),
  items: (state: 'waiting' | 'past', offset = 0, limit = 10) =>
    call<PortalItemPage>('GET', `/api/portal/items?state=${state}&limit=${limit}&offset=${offset}`),
  hold: (id: string, until: string | null) => call<PortalItem>('PUT', `/api/portal/items/${id}/hold`, { until }),
  proxies: () => call<Proxy[]>('GET', '/api/portal/proxies'),
  addProxy: (name: string) => call<Proxy>('POST', '/api/portal/proxies', { name }),
  removeProxy: (id: string) => call<void>('DELETE', `/api/portal/proxies/${id}`),
  expected: () => call<ExpectedPackageList>('GET', '/api/portal/expected'),
  addExpected: (body: AddExpectedPackagesBody) => call<ExpectedPackageList>('POST', '/api/portal/expected', body),
  removeExpected: (id: string) => call<void>('DELETE', `/api/portal/expected/${id}`),
};
