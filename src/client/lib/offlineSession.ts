import type { MyOrganization, User } from '@contract';

/**
 * The last signed-in person, kept so a reload without a network can open their desk (issue 29,
 * decision 044). Only what the shell needs to draw: the user the session check answered and the
 * organizations list. No token: the session cookie stays httpOnly and the server decides again
 * as soon as the network returns. Written when the server answers, cleared at sign-out and on a
 * 401 (setSessionUser(null)), so a signed-out browser never opens anybody's desk offline.
 */

const KEY = 'pigeonhole.offlineSession';

interface Kept {
  user: User;
  organizations?: MyOrganization[];
}

function read(): Kept | null {
  try {
    const text = localStorage.getItem(KEY);
    if (!text) return null;
    const value = JSON.parse(text) as Kept;
    return value && typeof value.user?.id === 'string' ? value : null;
  } catch {
    return null;
  }
}

function write(value: Kept) {
  try {
    localStorage.setItem(KEY, JSON.stringify(value));
  } catch {
    // storage unavailable (private mode, full): an offline reload shows the sign-in page instead
  }
}

export function keptUser(): User | null {
  return read()?.user ?? null;
}

export function keptOrganizations(userId: string): MyOrganization[] | undefined {
  const kept = read();
  return kept?.user.id === userId ? kept.organizations : undefined;
}

/** Another person signing in on this browser drops the previous person's organizations. */
export function keepUser(user: User) {
  const kept = read();
  write({ user, organizations: kept?.user.id === user.id ? kept.organizations : undefined });
}

/** The list the server just answered, for the person kept (the one whose cookie asked). */
export function keepOrganizations(organizations: MyOrganization[]) {
  const kept = read();
  if (kept) write({ ...kept, organizations });
}

export function forgetKeptSession() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
