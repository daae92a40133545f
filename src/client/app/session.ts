import type { User } from '@contract';
import { useSyncExternalStore } from 'react';
import { ApiError, apiRequest } from '@/lib/api';
import { forgetKeptSession, keepUser, keptUser } from '@/lib/offlineSession';

/**
 * Who is signed in, as the router needs it: undefined while the first check runs, then the user
 * or null. It lives outside TanStack Query so that the first chunk of every page (and with it the
 * landing page) carries no query library: the signed-in app and the signed-out forms load it with
 * their own chunks, start the current-user query from this answer (seedCurrentUser in
 * QueryRoot), and report its later answers back here (a session that ended, a renamed account).
 */

let user: User | null | undefined;
/** The check could not reach the server and the app started from the kept user (decision 044). */
let offlineStart = false;
const listeners = new Set<() => void>();

export function setSessionUser(next: User | null) {
  // The server's answer (or the kept user again): keep it for an offline reload, or forget it on
  // a 401 or sign-out so nobody's desk opens offline after it.
  if (next) keepUser(next);
  else forgetKeptSession();
  if (next === user) return;
  user = next;
  listeners.forEach((listener) => listener());
}

export function sessionUser(): User | null | undefined {
  return user;
}

/** Whether this page started from the kept user because the server could not be reached. */
export function startedOffline(): boolean {
  return offlineStart;
}

type Answer = User | null | 'network' | 'failed';

/** One ask: the user, null on 401/403, 'network' when the request never got an answer. */
async function ask(): Promise<Answer> {
  // Not getOrNull: it answers null for a network failure too, which would sign out.
  try {
    return await apiRequest<User>('GET', '/api/auth/user');
  } catch (err) {
    if (!(err instanceof ApiError)) return 'network'; // fetch rejected: offline, server unreachable
    return err.status === 401 || err.status === 403 ? null : 'failed';
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spec §7: the current-user call is retried once after 500 ms; a failure counts as signed out.
 * Except a failure of the network itself (never a 401): the last signed-in person's desk opens
 * from what the browser kept, and the server is asked again when the network returns.
 */
async function checkSession(): Promise<User | null> {
  let answer = await ask();
  if (answer === 'network' || answer === 'failed') {
    await pause(500);
    answer = await ask();
  }
  if (answer === 'network') {
    const kept = keptUser();
    if (kept) {
      offlineStart = true;
      window.addEventListener('online', () => void recheckOnline());
      return kept;
    }
    return null;
  }
  return answer === 'failed' ? null : answer;
}

let rechecking = false;

/** Back online after an offline start: the server decides for real (a 401 signs out). */
async function recheckOnline() {
  if (rechecking || !offlineStart) return;
  rechecking = true;
  const answer = await ask();
  rechecking = false;
  if (answer === 'network' || answer === 'failed') {
    // The 'online' event can come before requests get through: ask again shortly while online.
    if (navigator.onLine) setTimeout(() => void recheckOnline(), 3000);
    return;
  }
  offlineStart = false;
  setSessionUser(answer);
}

// Starts with the page, before React draws anything.
void checkSession().then((answer) => {
  if (user === undefined) {
    if (offlineStart && answer) {
      // Not setSessionUser: drawing from the kept user must not rewrite (or forget) what is kept.
      user = answer;
      listeners.forEach((listener) => listener());
    } else setSessionUser(answer);
  }
});

export function useSessionUser(): User | null | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => user,
  );
}
