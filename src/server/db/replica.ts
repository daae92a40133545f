import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { OrgCaller } from '../context';
import { connectDatabase, type Database, type Db } from './client';
import { organizationDataVersionSql } from './data-version';
import { appRoleFor } from './row-level-security';

/**
 * Reads that may go to a streaming replica (DATABASE_REPLICA_URL, decision 038): History, its
 * statistics, the CSV export and Reports.
 *
 * A person must still see their own writes there. The request already knows how far the primary
 * was for its organization when it started: the organization's data version, read with the
 * session (decision 037), which every write of what these screens show raises inside its
 * transaction and which only grows. The replica's copy of the same counter says how far it has
 * replayed that organization. So the replica serves the request once its version is at least the
 * caller's; until then it is asked again every POLL_MS, and after WAIT_MS the primary serves.
 * Replay only moves forward, so what the replica reads after the check is at least as new.
 *
 * A caller without a version (no session-read organization, a background job) reads the primary.
 * The replica pool is connected like the primary's (same role: a physical copy has the same roles;
 * same tenant scope per statement), so row-level security holds there as well.
 */
export type ReplicaReads = {
  /** The handle to read `caller`'s organization from: the replica when caught up, else the primary. */
  pick(caller: OrgCaller): Promise<Db>;
  /**
   * `work` on the handle `pick` chooses; if the replica fails it (gone, or a statement cancelled
   * by a conflict with recovery), once more on the primary.
   */
  run<T>(caller: OrgCaller, work: (db: Db) => Promise<T>): Promise<T>;
  /** Reads served by the replica, and those that fell back to the primary (behind, unreachable, failed, no version). */
  counts(): ReplicaReadCounts;
};

type ReplicaReadCounts = { replica: number; fallback: number };

/** How long a read waits for the replica to replay the caller's writes, and how often it asks. */
const WAIT_MS = 200;
const POLL_MS = 10;

/** The reads when there is no replica: everything on the primary, nothing counted. */
export function primaryReads(primary: Db): ReplicaReads {
  return {
    pick: async () => primary,
    run: (_caller, work) => work(primary),
    counts: () => ({ replica: 0, fallback: 0 }),
  };
}

export function createReplicaReads(
  primary: Db,
  replica: Db,
  { waitMs = WAIT_MS, pollMs = POLL_MS }: { waitMs?: number; pollMs?: number } = {},
): ReplicaReads {
  const counts: ReplicaReadCounts = { replica: 0, fallback: 0 };

  async function caughtUp({ organizationId, dataVersion }: OrgCaller): Promise<boolean> {
    if (dataVersion === undefined) return false;
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { rows } = await replica.execute<{ ok: boolean }>(
        sql`select ${organizationDataVersionSql(sql`${organizationId}::uuid`)}::numeric >= ${dataVersion}::numeric as ok`,
      );
      if (rows[0]?.ok) return true;
      if (Date.now() + pollMs > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  async function pick(caller: OrgCaller): Promise<Db> {
    // An unreachable replica is a fallback, not an error: the primary can answer.
    const onReplica = await caughtUp(caller).catch(() => false);
    if (onReplica) counts.replica += 1;
    else counts.fallback += 1;
    return onReplica ? replica : primary;
  }

  return {
    pick,
    async run(caller, work) {
      const db = await pick(caller);
      if (db === primary) return work(primary);
      try {
        return await work(replica);
      } catch (err) {
        // Bad input fails the same on the primary; a lost connection, a recovery conflict (40001:
        // canceled by replay) or a replica shutting down (57P0x) does not. (Drizzle wraps the
        // driver's error as its cause.)
        const cause = (err as { cause?: unknown }).cause ?? err;
        if (cause instanceof pg.DatabaseError && cause.code !== '40001' && !cause.code?.startsWith('57')) throw err;
        counts.replica -= 1;
        counts.fallback += 1;
        return work(primary);
      }
    },
    counts: () => ({ ...counts }),
  };
}

/** The replica's pool, connected as the primary's is (the application's role, the pooler mode). */
export async function connectReplica(url: string, poolSize: number, pooler: 'transaction' | null): Promise<Database> {
  return connectDatabase(url, poolSize, { role: await appRoleFor(url), pooler });
}
