import { CHANGE_FEED_CHANNEL, changeMessage, notifyChange } from './change-feed';
import type { DbOrTx } from '../db/client';
import { asPlatform } from '../db/tenant-scope';

/**
 * What the writers tell the live desk (issue 29, decision 043): which of an organization's data
 * changed, sent on the change feed (lib/change-feed.ts) so that a stream held by any instance
 * hears it. Sent inside the writing transaction where there is one (PostgreSQL delivers it at
 * commit, and only then), or right after an autocommitted statement (the mail item writer's
 * batches: a statement of their own after the commit, one per batch).
 *
 * Only ids and kinds travel: the screens refetch what they show through the ordinary reads,
 * which check who may see what. Nothing personal, no photo.
 */

/** The change feed kind of a data change. */
export const LIVE_CHANGE = 'live';
/** The change feed kind of "this user's sessions may have ended" (sign-out, password change). */
export const LIVE_SESSION = 'live-session';
/**
 * The sender named in the envelope: no instance has it as its id, so every instance, the
 * writer's own included, hears the message (the feed skips only an instance's own id), and a
 * stream on the writer's instance learns of the change the same way, at commit.
 */
const LIVE_SENDER = 'live';

export const LIVE_TOPICS = ['mail-items', 'recipients', 'storage', 'members'] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/**
 * A change: `o` the organization, `k` what changed, `ids` the rows (left out past MAX_IDS: a bulk
 * change is "something changed"), `u` the member's user id for a member change (their own
 * stream re-checks the membership), `at` when it was sent (ms since the epoch, the writer's clock:
 * just after the commit for an autocommitted batch, just before it inside a transaction), which
 * lets a client measure delivery (scripts/bench/live-streams.ts).
 */
export type LiveChange = { o: string; k: LiveTopic; ids?: string[]; u?: string; at?: number };
export type LiveSessionChange = { u: string };

/** Enough for a screen to know which rows; far under the feed's 8000 bytes (40 bytes an id). */
const MAX_IDS = 20;

export function liveChange(organizationId: string, topic: LiveTopic, ids: string[] = [], userId?: string): LiveChange {
  return {
    o: organizationId,
    k: topic,
    ...(ids.length > 0 && ids.length <= MAX_IDS ? { ids } : {}),
    ...(userId ? { u: userId } : {}),
  };
}

/** Sends a change through a Drizzle transaction (delivered at its commit) or the pool. */
export function publishLive(via: DbOrTx, change: LiveChange): Promise<void> {
  return notifyChange(via, LIVE_SENDER, LIVE_CHANGE, { ...change, at: Date.now() });
}

/** Tells every instance that `userId`'s sessions may have ended: their streams re-check theirs. */
export function publishSessionsEnded(via: DbOrTx, userId: string): Promise<void> {
  return notifyChange(via, LIVE_SENDER, LIVE_SESSION, { u: userId } satisfies LiveSessionChange);
}

/** A plain pg client or pool (the mail item writer's). */
type PgQueryable = {
  query: (config: { name?: string; text: string; values: unknown[] }) => Promise<unknown>;
};

/**
 * Sends several changes in one statement (one round trip) through a plain pg client: inside its
 * transaction when it holds one, else on its own.
 */
export async function publishLiveChanges(via: PgQueryable, changes: LiveChange[]): Promise<void> {
  if (changes.length === 0) return;
  const at = Date.now();
  const messages = changes.map((c) => changeMessage(LIVE_SENDER, LIVE_CHANGE, { ...c, at }));
  await asPlatform(() =>
    via.query({
      name: 'live_changes',
      text: `select pg_notify($1, m) from unnest($2::text[]) m`,
      values: [CHANGE_FEED_CHANNEL, messages],
    }),
  );
}

/** One change per organization: the items of each, ids kept while there are few. */
export function mailItemChanges(items: Array<{ organizationId: string; id: string }>): LiveChange[] {
  const byOrganization = new Map<string, string[]>();
  for (const { organizationId, id } of items) {
    const ids = byOrganization.get(organizationId);
    if (ids) ids.push(id);
    else byOrganization.set(organizationId, [id]);
  }
  return [...byOrganization].map(([o, ids]) => liveChange(o, 'mail-items', ids));
}
