/**
 * The live desk's event stream (issue 29, decision 043): GET /api/events?organizationId=…
 * answers text/event-stream. This file imports nothing (no zod): the signed-in shell reads it on
 * every page.
 */

/** The stream's path. An EventSource cannot send headers: the organization is a query parameter. */
export const LIVE_EVENTS_PATH = '/api/events';

/** What changed in a `change` event; the screens refetch the matching queries. */
export type LiveEventKind = 'mail-items' | 'recipients' | 'storage' | 'members';

/**
 * `change`: `ids` are the rows that changed, left out for a bulk change; `at` when the writer
 * sent it (ms since the epoch, the server's clock; at its commit), for measuring delivery.
 */
export type LiveChangeEvent = { kind: LiveEventKind; ids?: string[]; at?: number };

/**
 * `ended`: why the server closed the stream. `replaced`: a newer stream of the same session or
 * person took its place (decision 051); the tab does not reconnect until it is looked at again.
 */
export type LiveEndReason = 'signed-out' | 'removed' | 'role-changed' | 'shutdown' | 'replaced';

/**
 * The events: `ready` (first, `{organizationId, role}`), `change` (LiveChangeEvent), `resync`
 * (refetch everything shown: the browser reconnected, or the server may have missed messages),
 * `ended` (`{reason}`, then the stream closes). Comments (`:`) are heartbeats.
 */
export const LIVE_EVENTS = ['ready', 'change', 'resync', 'ended'] as const;
