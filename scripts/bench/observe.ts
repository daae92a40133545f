import { performance } from 'node:perf_hooks';
import pg from 'pg';

/**
 * Where the time of a measured run went, seen from both ends: how busy this process's event loop
 * (the server's; autocannon runs in a worker thread) was, and what the database sessions were doing,
 * sampled from pg_stat_activity every SAMPLE_MS. A saturated event loop with idle sessions means
 * the app is the bottleneck; sessions stuck in one lock wait mean a hot row.
 */
export type Observation = {
  /** Share of the run the main thread's event loop was busy, 0..1. */
  eventLoopBusy: number;
  /** Database sessions not idle, on average over the samples. */
  busySessions: number;
  /** What the busy sessions were doing, by share of the busy samples, largest first. */
  states: { state: string; share: number }[];
};

const SAMPLE_MS = 50;

export function createObserver(databaseUrl: string) {
  let client: pg.Client | undefined;
  let running: { stop: () => Promise<Observation> } | undefined;

  async function start() {
    if (!client) {
      client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-observer' });
      await client.connect();
    }
    const c = client;
    const elu = performance.eventLoopUtilization();
    const counts = new Map<string, number>();
    let ticks = 0;
    let busy = 0;
    let stopped = false;
    const loop = (async () => {
      while (!stopped) {
        const { rows } = await c.query<{ state: string; type: string | null; event: string | null; query: string }>(
          `select state, wait_event_type as type, wait_event as event, left(query, 200) as query
           from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid()
             and backend_type = 'client backend' and state <> 'idle'`,
        );
        ticks++;
        busy += rows.length;
        for (const row of rows) {
          const state = classify(row);
          counts.set(state, (counts.get(state) ?? 0) + 1);
        }
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      }
    })();
    running = {
      stop: async () => {
        const eventLoopBusy = performance.eventLoopUtilization(elu).utilization;
        stopped = true;
        await loop;
        return {
          eventLoopBusy,
          busySessions: ticks ? busy / ticks : 0,
          states: [...counts].sort((a, b) => b[1] - a[1]).map(([state, n]) => ({ state, share: busy ? n / busy : 0 })),
        };
      },
    };
  }

  async function stop(): Promise<Observation> {
    if (!running) throw new Error('observer not started');
    const observation = await running.stop();
    running = undefined;
    return observation;
  }

  async function close() {
    await client?.end();
    client = undefined;
  }

  return { start, stop, close };
}

function classify(row: { state: string; type: string | null; event: string | null; query: string }): string {
  const statement = row.query.replace(/\s+/g, ' ').trim().slice(0, 48);
  if (row.state.startsWith('idle in transaction')) return 'in a transaction, waiting for the app';
  if (row.type === 'Lock') return `lock wait (${row.event}) in: ${statement}`;
  if (row.event === 'WalSync' || row.event === 'WALWrite' || row.event === 'WalWrite') return 'commit: WAL flush';
  if (row.type === null) return `running: ${statement}`;
  return `${row.type}:${row.event} in: ${statement}`;
}
