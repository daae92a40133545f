import { ApiError, apiRequest } from '@/lib/api';

/** A refusal for going too fast (429): the server's sentence and how many seconds to wait. */
export type RateRefusal = { message: string; retryAfterSeconds: number };

const rateRefusalListeners = new Set<(refusal: RateRefusal) => void>();
const sessionEndedListeners = new Set<() => void>();

/**
 * Called with every 429 any call of the page gets (holds, expected packages, proxies...), so the
 * page can say it plainly in one place whichever section was refused. Answers the unsubscribe.
 */
export function onRateRefusal(listener: (refusal: RateRefusal) => void): () => void {
  rateRefusalListeners.add(listener);
  return () => void rateRefusalListeners.delete(listener);
}

/**
 * Called when any call of the page answers 401: the recipient's session ended (signed out in
 * another tab, deactivated by the desk), whichever section noticed. Answers the unsubscribe.
 */
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => void sessionEndedListeners.delete(listener);
}

/** The sentence the server sent with a refusal, or a plain fallback. */
export function messageOf(err: unknown, fallback = 'Something went wrong. Please try again.') {
  return err instanceof ApiError && err.reply ? err.reply.message : fallback;
}

/**
 * A call of the recipient's page to /api/portal/*: lib/api's request with the page's own cookie
 * and no organization header (none of the staff app's), telling the page of a refusal for the
 * rate and of an ended session.
 */
export async function portalRequest<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  try {
    return await apiRequest<T>(method, url, body, { organizationId: false });
  } catch (err) {
    if (err instanceof ApiError && err.status === 429) {
      const refusal: RateRefusal = {
        message: messageOf(err, 'Too many changes at once. Wait a minute, then try again.'),
        retryAfterSeconds: Math.max(1, err.retryAfterSeconds || 60),
      };
      for (const listener of rateRefusalListeners) listener(refusal);
    }
    if (err instanceof ApiError && err.status === 401) for (const listener of sessionEndedListeners) listener();
    throw err;
  }
}
