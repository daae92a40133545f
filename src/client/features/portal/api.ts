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
  if (!res.ok) throw new ApiError(res.status, text, res.statusText);
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
