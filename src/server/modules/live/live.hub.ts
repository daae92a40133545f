import type { FastifyBaseLogger } from 'fastify';
import type { LiveEndReason, Role } from '../../../contract';
import type { ChangeFeed } from '../../lib/change-feed';
import { LIVE_CHANGE, LIVE_SESSION, LIVE_TOPICS, type LiveChange, type LiveSessionChange } from '../../lib/live-events';

/**
 * The live desk's open streams on this instance (issue 29, decision 043), by organization and by
 * user. Every instance hears every live message on the change feed (lib/live-events.ts) and
 * passes each to the streams of its organization only; nothing is kept, so a stream that was not
 * open when something changed is told to refetch (`resync`) when it comes back.
 *
 * Who may listen is read again, never remembered for long (decision 037): on a timer, and at
 * once when a message says the user's sessions or membership changed. A signed-out, removed or
 * re-roled member's stream ends with an `ended` event saying why.
 *
 * How many streams there may be is bounded (issue 41, item 5; decision 051): each costs an open
 * file and a session re-read every 15-30 s, and one session opened 500. Per session and per person
 * the newest stream wins: the oldest is ended (`replaced`) so a new tab always works, and the
 * browser does not fight for the slot back. Per instance a new stream is refused (the route
 * answers 503 with Retry-After) while the instance holds its most.
 */

/** Why a stream ended; the client acts on it (sign-in page, organization list, reconnect). */
export type EndReason = LiveEndReason;

/** One open stream as the hub sees it; the route writes the bytes. */
export type LiveStream = {
  organizationId: string;
  userId: string;
  /** The session's id (its token's hash) and the role it opened with, for the re-checks. */
  sessionId: string;
  role: Role;
  /** Writes one event (`event`, `data` as JSON, `id`) or a comment (`event` null). */
  write: (event: string | null, data?: unknown, id?: string) => void;
  /** Ends the response. */
  end: () => void;
};

/** What the hub asks of the session store: the session's role in the organization now (null: not a member), undefined when the session is over. */
type SessionCheck = (sessionId: string, organizationId: string) => Promise<Role | null | undefined>;

/** The most streams at once (config: LIVE_STREAMS_PER_SESSION, _PER_PERSON, _PER_INSTANCE). */
type LiveStreamCaps = { perSession: number; perPerson: number; perInstance: number };

export type LiveHubOptions = {
  changeFeed: ChangeFeed;
  log: FastifyBaseLogger;
  checkSession: SessionCheck;
  caps: LiveStreamCaps;
  /** How often each stream's session is read again (a sign-out by some path that sends no message). */
  recheckMs?: number;
  /** How often a comment goes down every stream, so proxies and NATs keep it open. */
  heartbeatMs?: number;
};

const DEFAULT_RECHECK_MS = 30_000;
const DEFAULT_HEARTBEAT_MS = 20_000;

const isTopic = (k: unknown): k is LiveChange['k'] => LIVE_TOPICS.includes(k as LiveChange['k']);

export function createLiveHub({
  changeFeed,
  log,
  checkSession,
  recheckMs = DEFAULT_RECHECK_MS,
  heartbeatMs = DEFAULT_HEARTBEAT_MS,
  caps,
}: LiveHubOptions) {
  const byOrganization = new Map<string, Set<LiveStream>>();
  // A Set keeps the order streams were added in: the first of each is its oldest.
  const byUser = new Map<string, Set<LiveStream>>();
  const bySession = new Map<string, Set<LiveStream>>();
  const rechecks = new Map<LiveStream, NodeJS.Timeout>();
  /** Event ids: this instance's count of events sent. Only "an id was seen" matters (a reconnect). */
  let sequence = 0;
  let closing = false;
  const stats = { opened: 0, delivered: 0, ended: 0, replaced: 0, refused: 0, rechecks: 0 };

  const add = <K>(map: Map<K, Set<LiveStream>>, key: K, stream: LiveStream) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(stream);
  };
  const drop = <K>(map: Map<K, Set<LiveStream>>, key: K, stream: LiveStream) => {
    const set = map.get(key);
    if (!set) return;
    set.delete(stream);
    if (set.size === 0) map.delete(key);
  };
  const nextId = () => String((sequence += 1));

  function send(stream: LiveStream, event: string, data: unknown) {
    try {
      stream.write(event, data, nextId());
    } catch (err) {
      log.warn({ err }, 'live desk: a stream could not be written; ending it');
      remove(stream);
      stream.end();
    }
  }

  function remove(stream: LiveStream) {
    drop(byOrganization, stream.organizationId, stream);
    drop(byUser, stream.userId, stream);
    drop(bySession, stream.sessionId, stream);
    clearTimeout(rechecks.get(stream));
    rechecks.delete(stream);
  }

  function end(stream: LiveStream, reason: EndReason) {
    if (!rechecks.has(stream)) return;
    remove(stream);
    stats.ended += 1;
    send(stream, 'ended', { reason });
    stream.end();
  }

  /** Reads the session again; ends the stream when it is over or the role changed. */
  async function recheck(stream: LiveStream) {
    if (!rechecks.has(stream)) return;
    let role: Role | null | undefined;
    stats.rechecks += 1;
    try {
      role = await checkSession(stream.sessionId, stream.organizationId);
    } catch (err) {
      // The database away: keep the stream (its reads fail on their own) and try on the next turn.
      log.warn({ err }, 'live desk: a session could not be re-checked');
      schedule(stream);
      return;
    }
    if (role === undefined) end(stream, 'signed-out');
    else if (role === null) end(stream, 'removed');
    else if (role !== stream.role) end(stream, 'role-changed');
    else schedule(stream);
  }

  /** The next timed re-check, spread over half a period so a thousand streams do not ask at once. */
  function schedule(stream: LiveStream) {
    // Ended meanwhile (a re-check that was in flight must not bring it back).
    if (!rechecks.has(stream)) return;
    clearTimeout(rechecks.get(stream));
    const timer = setTimeout(() => void recheck(stream), recheckMs / 2 + Math.random() * (recheckMs / 2));
    timer.unref();
    rechecks.set(stream, timer);
  }

  const unsubscribeChanges = changeFeed.subscribe(LIVE_CHANGE, (payload) => {
    const change = payload as Partial<LiveChange> | null;
    if (!change || typeof change.o !== 'string' || !isTopic(change.k)) return;
    const streams = byOrganization.get(change.o);
    if (!streams) return;
    const data = {
      kind: change.k,
      ...(Array.isArray(change.ids) ? { ids: change.ids } : {}),
      ...(typeof change.at === 'number' ? { at: change.at } : {}),
    };
    for (const stream of [...streams]) {
      // A member change of this stream's own user: who may listen is read again at once.
      if (change.k === 'members' && change.u === stream.userId) void recheck(stream);
      send(stream, 'change', data);
      stats.delivered += 1;
    }
  });

  const unsubscribeSessions = changeFeed.subscribe(LIVE_SESSION, (payload) => {
    const { u } = (payload ?? {}) as Partial<LiveSessionChange>;
    if (typeof u !== 'string') return;
    for (const stream of [...(byUser.get(u) ?? [])]) void recheck(stream);
  });

  // While the feed was not listening, messages were lost: every stream refetches what it shows.
  let wasListening = changeFeed.listening;
  const unsubscribeListening = changeFeed.onListening((listening) => {
    if (listening && !wasListening) {
      for (const streams of byOrganization.values()) for (const stream of [...streams]) send(stream, 'resync', {});
    }
    wasListening = listening;
  });

  const heartbeat = setInterval(() => {
    for (const streams of byOrganization.values()) {
      for (const stream of streams) {
        try {
          stream.write(null);
        } catch {
          // Its close handler removes it.
        }
      }
    }
  }, heartbeatMs);
  heartbeat.unref();

  /** The oldest of `streams` once there are `cap` or more of them: the one a new stream replaces. */
  const oldestAtCap = (streams: Set<LiveStream> | undefined, cap: number) =>
    streams && streams.size >= cap ? streams.values().next().value : undefined;

  return {
    stats,
    /** Streams open now. */
    get size() {
      return rechecks.size;
    },

    /**
     * Whether a new stream of this session may open now: the instance holds fewer than its most,
     * or the session's or the person's oldest stream will give way to it (a new tab always works).
     * Asked before the response starts, so a refusal can still be a 503.
     */
    hasRoomFor(userId: string, sessionId: string): boolean {
      if (rechecks.size < caps.perInstance) return true;
      if (oldestAtCap(bySession.get(sessionId), caps.perSession) || oldestAtCap(byUser.get(userId), caps.perPerson)) {
        return true;
      }
      stats.refused += 1;
      return false;
    },

    /**
     * Starts a stream: `ready` (with an id, so a browser that reconnects says so) and, when the
     * browser says it was connected before (`Last-Event-ID`), `resync`: what happened in between
     * is not kept, so it refetches what it shows. Answers the function that forgets it. The
     * caller has asked hasRoomFor first (the instance's most is not checked again here).
     */
    open(stream: LiveStream, reconnected: boolean): () => void {
      if (closing) {
        stream.write('ended', { reason: 'shutdown' satisfies EndReason });
        stream.end();
        return () => undefined;
      }
      // The newest wins: the session's, then the person's oldest stream makes way (`replaced`).
      for (const [streams, cap] of [
        [bySession.get(stream.sessionId), caps.perSession],
        [byUser.get(stream.userId), caps.perPerson],
      ] as const) {
        let oldest: LiveStream | undefined;
        while ((oldest = oldestAtCap(streams, cap))) {
          stats.replaced += 1;
          end(oldest, 'replaced');
        }
      }
      add(byOrganization, stream.organizationId, stream);
      add(byUser, stream.userId, stream);
      add(bySession, stream.sessionId, stream);
      rechecks.set(stream, undefined as unknown as NodeJS.Timeout);
      schedule(stream);
      stats.opened += 1;
      send(stream, 'ready', { organizationId: stream.organizationId, role: stream.role });
      if (reconnected) send(stream, 'resync', {});
      return () => remove(stream);
    },

    /** Ends every stream (SIGTERM: the server's close then waits for no stream); the browsers reconnect elsewhere. */
    close() {
      closing = true;
      clearInterval(heartbeat);
      unsubscribeChanges();
      unsubscribeSessions();
      unsubscribeListening();
      for (const stream of [...rechecks.keys()]) end(stream, 'shutdown');
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
