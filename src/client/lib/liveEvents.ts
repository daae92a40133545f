import { useEffect } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { LIVE_EVENTS_PATH, type LiveChangeEvent, type LiveEndReason, type LiveEventKind } from '../../contract/live';
import { orgQueryKey } from './queryClient';
import { staleAfter } from './resources/invalidate';
import { currentUserQueryKey, membersQueryKey, organizationsQueryKey } from './resources/keys';

/*
 * The live desk (issue 29, decision 043): one EventSource for the organization on screen, opened
 * once by the signed-in shell. Each change the server announces marks the queries that show it
 * stale, and TanStack Query refetches the ones on screen (the others when next shown): Mail
 * Intake, Pending Pickups, the dashboard and History follow other desks without polling.
 * What each kind of change makes stale is the map this desk's own saves use (staleAfter).
 * Nothing is replayed after a drop: the server says `resync` when the browser reconnects, and
 * everything of the organization is refetched.
 */

/** Changes arriving together (a busy desk) are applied once: one refetch per screen, not one per item. */
const GATHER_MS = 50;
/** After the server refused or dropped the stream for good (a deploy, a 502), the next try; doubling. */
const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 30_000;

function invalidate(queryClient: QueryClient, keys: QueryKey[]) {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

/** Refetch everything of the organization shown, and the lists around it. */
function resync(queryClient: QueryClient, organizationId: string) {
  invalidate(queryClient, [orgQueryKey(organizationId), organizationsQueryKey, membersQueryKey(organizationId)]);
}

/** What a connection needs of the browser; tests pass fakes. */
export type LiveBrowser = {
  EventSource: typeof EventSource;
  /** Calls `listener` when the person looks at this tab again (shown, or its window focused); answers the unsubscribe. */
  onAttention: (listener: () => void) => () => void;
};

const browserAttention: LiveBrowser['onAttention'] = (listener) => {
  const onVisibility = () => {
    if (document.visibilityState === 'visible') listener();
  };
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('focus', listener);
  return () => {
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('focus', listener);
  };
};

/**
 * Holds the organization's stream until the answered function is called: refetches on its
 * changes, reconnects as the server's reasons say (see the `ended` handler).
 */
export function connectLiveEvents(organizationId: string, queryClient: QueryClient, browser: LiveBrowser): () => void {
  let source: EventSource | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let gather: ReturnType<typeof setTimeout> | undefined;
  let stopAttention: (() => void) | undefined;
  let failures = 0;
  let stopped = false;
  const pending = new Set<LiveEventKind>();

  const flush = () => {
    gather = undefined;
    const kinds = [...pending];
    pending.clear();
    invalidate(
      queryClient,
      kinds.flatMap((kind) => staleAfter(organizationId, kind)),
    );
  };

  const connect = (afterFailure: boolean) => {
    source = new browser.EventSource(`${LIVE_EVENTS_PATH}?organizationId=${encodeURIComponent(organizationId)}`);
    source.addEventListener('ready', () => {
      // A new stream after one that failed for good: what happened meanwhile is unknown.
      if (afterFailure) resync(queryClient, organizationId);
      afterFailure = false;
      failures = 0;
    });
    source.addEventListener('change', (event) => {
      const { kind } = JSON.parse((event as MessageEvent<string>).data) as LiveChangeEvent;
      pending.add(kind);
      gather ??= setTimeout(flush, GATHER_MS);
    });
    source.addEventListener('resync', () => resync(queryClient, organizationId));
    source.addEventListener('ended', (event) => {
      const { reason } = JSON.parse((event as MessageEvent<string>).data) as { reason: LiveEndReason };
      if (reason === 'signed-out') {
        // The session is over: the session check sends the person to the sign-in page.
        source?.close();
        void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
      } else if (reason === 'removed') {
        // The organization list drops it and says so (OrganizationProvider); the shell then
        // opens the stream of the organization it moves to.
        source?.close();
        void queryClient.invalidateQueries({ queryKey: organizationsQueryKey });
      } else if (reason === 'role-changed') {
        void queryClient.invalidateQueries({ queryKey: organizationsQueryKey });
      } else if (reason === 'replaced') {
        // Newer tabs of this session or person took this one's place (decision 051). Reconnecting
        // now would take a place back from one of them, which would do the same: two tabs would
        // fight for it for ever. This tab comes back when it is looked at again, and refetches.
        source?.close();
        stopAttention?.();
        stopAttention = browser.onAttention(() => {
          stopAttention?.();
          stopAttention = undefined;
          if (!stopped) connect(true);
        });
      }
      // 'role-changed' and 'shutdown': the browser reconnects by itself (to another instance).
    });
    source.onerror = () => {
      // The browser retries a dropped stream by itself (readyState CONNECTING); a refusal
      // (401/404, a full instance's 503) or a proxy's error page closes it for good: try again
      // later, and check whether the session and the membership still hold.
      if (source?.readyState !== browser.EventSource.CLOSED || stopped) return;
      failures += 1;
      void queryClient.invalidateQueries({ queryKey: organizationsQueryKey });
      const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (failures - 1));
      retry = setTimeout(() => connect(true), delay);
    };
  };

  connect(false);
  return () => {
    stopped = true;
    source?.close();
    stopAttention?.();
    clearTimeout(retry);
    clearTimeout(gather);
  };
}

/** Opens the organization's stream while `organizationId` is set; one per signed-in shell. */
export function useLiveEvents(organizationId: string | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!organizationId || typeof EventSource === 'undefined') return;
    return connectLiveEvents(organizationId, queryClient, { EventSource, onAttention: browserAttention });
  }, [organizationId, queryClient]);
}
