import type { User } from '@contract';
import { useSyncExternalStore } from 'react';
import { getOrNull } from '@/lib/api';

/**
 * Who is signed in, as the router needs it: undefined while the first check runs, then the user
 * or null. It lives outside TanStack Query so that the first chunk of every page (and with it the
 * landing page) carries no query library: the signed-in app and the signed-out forms load it with
 * their own chunks, start the current-user query from this answer (seedCurrentUser in
 * QueryRoot), and report its later answers back here (a session that ended, a renamed account).
 */

let user: User | null | undefined;
const listeners = new Set<() => void>();

export function setSessionUser(next: User | null) {
  if (next === user) return;
  user = next;
  listeners.forEach((listener) => listener());
}

export function sessionUser(): User | null | undefined {
  return user;
}

/** Spec §7: the current-user call is retried once after 500 ms; a failure counts as signed out. */
async function checkSession() {
  try {
    return await getOrNull<User>('/api/auth/user');
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 500));
    return getOrNull<User>('/api/auth/user').catch(() => null);
  }
}

// Starts with the page, before React draws anything.
void checkSession().then((answer) => {
  if (user === undefined) setSessionUser(answer);
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
