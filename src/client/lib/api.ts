import { ORGANIZATION_HEADER, SELECTED_ORGANIZATION_KEY, type ErrorReply } from '@contract';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A non-OK reply. `message` is "status: body text" (or the status text when the body is empty). */
export class ApiError extends Error {
  readonly status: number;
  /** The server's `{message, code, errors}` when the body was such JSON. */
  readonly reply: ErrorReply | null;

  constructor(status: number, text: string, statusText: string) {
    super(`${status}: ${text || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.reply = parseErrorReply(text);
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
  /** The organization the call acts on; defaults to the remembered selection. */
  organizationId?: string | null;
}

/** Calls the API with the session cookie and the organization header; throws ApiError when not OK. */
export async function apiRequest<T>(
  method: Method,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const organizationId = options.organizationId ?? getSelectedOrganizationId();
  if (organizationId) headers[ORGANIZATION_HEADER] = organizationId;

  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
  });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text, res.statusText);
  return (text ? JSON.parse(text) : undefined) as T;
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
