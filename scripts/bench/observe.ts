import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';

/**
 * Where the time of a measured run went, seen from both ends: how busy this process's event loop
 * (the server's; autocannon runs in a worker thread) was, and what the database sessions were doing,
 * sampled from pg_stat_activity every SAMPLE_MS. A saturated event loop with idle sessions means
 * the app is the bottleneck; sessions stuck in one lock wait mean a hot row.
 */
export type Observation = {
  /** Share of the run the main thread's event loop was busy, 0..1 (including time it waited for a CPU). */
  eventLoopBusy: number;
  /**
   * CPU time the main thread (the server) used during the run, from /proc on Linux (undefined
   * elsewhere): on a machine whose CPUs the load generator and PostgreSQL share, the event loop
   * counts as busy while it waits for a CPU, this does not.
   */
  serverCpuMs: number | undefined;
  /** CPU time every `postgres` process on this machine used during the run (Linux; undefined elsewhere). */
  databaseCpuMs: number | undefined;
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
    const cpuBefore = mainThreadCpuMs();
    const databaseBefore = postgresCpuMs();
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
        const cpuAfter = mainThreadCpuMs();
        const databaseAfter = postgresCpuMs();
        stopped = true;
        await loop;
        return {
          eventLoopBusy,
          serverCpuMs: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
          databaseCpuMs: differenceOf(databaseBefore, databaseAfter),
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

/** CPU ms by process over the `postgres` processes of this machine (their backends live as long as the pool). */
function postgresCpuMs(): Map<string, number> | undefined {
  try {
    const used = new Map<string, number>();
    for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (!stat.includes('(postgres)')) continue;
        const fields = stat.split(') ')[1]!.split(' ');
        used.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
      } catch {
        // the process ended meanwhile
      }
    }
    return used;
  } catch {
    return undefined;
  }
}

/** CPU used between two readings; a process started meanwhile counts from zero. */
function differenceOf(before: Map<string, number> | undefined, after: Map<string, number> | undefined) {
  if (!before || !after) return undefined;
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** User + system CPU time of this process's main thread (its task id is the process id), in ms. */
function mainThreadCpuMs(): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

function classify(row: { state: string; type: string | null; event: string | null; query: string }): string {
  const statement = row.query.replace(/\s+/g, ' ').trim().slice(0, 48);
  if (row.state.startsWith('idle in transaction')) return 'in a transaction, waiting for the app';
  if (row.type === 'Lock') return `lock wait (${row.event}) in: ${statement}`;
  if (row.event === 'WalSync' || row.event === 'WALWrite' || row.event === 'WalWrite') return 'commit: WAL flush';
  if (row.type === null) return `running: ${statement}`;
  return `${row.type}:${row.event} in: ${statement}`;
}
