import { ORGANIZATION_HEADER, SELECTED_ORGANIZATION_KEY, TOTAL_COUNT_HEADER, type ErrorReply } from '@contract';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A non-OK reply. `message` is "status: body text" (or the status text when the body is empty). */
export class ApiError extends Error {
  readonly status: number;
  /** The server's `{message, code, errors}` when the body was such JSON. */
  readonly reply: ErrorReply | null;
  /** A refusal's Retry-After in seconds (a 429 says how long to wait), or null when it sent none. */
  readonly retryAfterSeconds: number | null;

  constructor(status: number, text: string, statusText: string, retryAfter: string | null = null) {
    super(`${status}: ${text || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.reply = parseErrorReply(text);
    this.retryAfterSeconds = Number(retryAfter) || null; // (none, 0 or not a number: null)
  }
}

function parseErrorReply(text: string): ErrorReply | null {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && typeof (value as ErrorReply).message === 'string') {
      return value as ErrorReply;
    }
  } catch {
    // not JSON: the plain text stays in ApiError.message
  }
  return null;
}

export function getSelectedOrganizationId(): string | null {
  try {
    return localStorage.getItem(SELECTED_ORGANIZATION_KEY);
  } catch {
    return null;
  }
}

export function storeSelectedOrganizationId(id: string) {
  try {
    localStorage.setItem(SELECTED_ORGANIZATION_KEY, id);
  } catch {
    // storage unavailable (private mode): the choice lasts for this page only
  }
}

interface RequestOptions {
  /**
   * The organization the call acts on; defaults to the remembered selection. `false`: none, not
   * even the remembered one (the recipient's page belongs to no staff organization).
   */
  organizationId?: string | null | false;
  /** More headers: an Idempotency-Key, an If-Match (decision 044). */
  headers?: Record<string, string>;
}

/** Calls the API with the session cookie and the organization header; throws ApiError when not OK. */
export async function apiRequest<T>(
  method: Method,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const organizationId =
    options.organizationId === false ? null : (options.organizationId ?? getSelectedOrganizationId());
  if (organizationId) headers[ORGANIZATION_HEADER] = organizationId;

  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
  });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text, res.statusText, res.headers.get('retry-after'));
  return (text ? JSON.parse(text) : undefined) as T;
}

/** `path?a=1&b=x`, leaving out parameters that are undefined or blank. */
export function withQuery(path: string, params: Record<string, string | number | boolean | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const text = typeof value === 'string' ? value.trim() : value === undefined ? '' : String(value);
    if (text !== '') query.set(key, text);
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/** One page of a list and how many match in all. */
export interface Page<T> {
  items: T[];
  total: number;
}

/** GET of a paginated list: the body is the page (spec §7 keeps it an array), the total is in x-total-count. */
export async function fetchPage<T>(url: string, organizationId?: string): Promise<Page<T>> {
  // Platform lists (super admin) belong to no organization: no header.
  const headers: Record<string, string> = organizationId ? { [ORGANIZATION_HEADER]: organizationId } : {};
  const res = await fetch(url, { headers, credentials: 'include' });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text, res.statusText);
  const items = (text ? JSON.parse(text) : []) as T[];
  const total = Number(res.headers.get(TOTAL_COUNT_HEADER) ?? Number.NaN);
  return { items, total: Number.isFinite(total) ? total : items.length };
}

/** A GET that treats 401, 403 and network failures as "nothing there" (null). */
export async function getOrNull<T>(url: string): Promise<T | null> {
  try {
    return await apiRequest<T>('GET', url);
  } catch (err) {
    if (err instanceof ApiError && err.status !== 401 && err.status !== 403) throw err;
    return null;
  }
}

/** The server's own message when it sent one, else the given fallback. */
export function serverMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.reply?.message ? err.reply.message : fallback;
}
