import { connectDatabase } from '../../src/server/db/client';
import { hashToken } from '../../src/server/lib/tokens';
import { sessionsRepository } from '../../src/server/modules/auth/sessions.repository';
import { dashboardRepository } from '../../src/server/modules/dashboard/dashboard.repository';
import { membersRepository } from '../../src/server/modules/organizations/members.repository';
import { organizationsRepository } from '../../src/server/modules/organizations/organizations.repository';

export type QueryTiming = { query: string; meanMs: number; maxMs: number };

/**
 * The statements behind the benchmarked endpoints, each run alone and sequentially (no load),
 * through the server's own repositories. Set beside the HTTP figures they show how much of a
 * request is SQL and which statement dominates.
 */
export async function timeQueries(
  databaseUrl: string,
  ids: { sessionToken: string; userId: string; organizationId: string },
  runs = 200,
): Promise<QueryTiming[]> {
  const database = connectDatabase(databaseUrl, 1);
  const { db } = database;
  const sid = hashToken(ids.sessionToken);
  try {
    const queries: [string, () => Promise<unknown>][] = [
      ['session + user (every signed-in call)', () => sessionsRepository.findLive(db, sid)],
      ['membership role (every org-scoped call)', () => membersRepository.findRole(db, ids.organizationId, ids.userId)],
      ["user's organizations", () => organizationsRepository.listForUser(db, ids.userId)],
      ['dashboard stats', () => dashboardRepository.stats(db, ids.organizationId)],
    ];
    const timings: QueryTiming[] = [];
    for (const [query, run] of queries) timings.push({ query, ...(await timeOne(run, runs)) });
    return timings;
  } finally {
    await database.close();
  }
}

async function timeOne(run: () => Promise<unknown>, runs: number) {
  for (let i = 0; i < 20; i++) await run(); // warm the plan cache and shared buffers
  let total = 0;
  let max = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    const ms = performance.now() - started;
    total += ms;
    max = Math.max(max, ms);
  }
  return { meanMs: total / runs, maxMs: max };
}
