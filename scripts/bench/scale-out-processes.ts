/**
 * The processes of the scale-out benchmark: built instances (`node dist/server/main.mjs`) as
 * children, and what they cost in CPU, read from /proc. Every child is killed when this process
 * exits, however it exits (a signal included: runBenchmark exits at once on one, so the
 * asynchronous clean-ups may never run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import getPort from 'get-port';
import { log, onCleanup, rootDir } from './harness';

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export type Instance = { pid: number; port: number; url: string; stop: () => Promise<void> };

export const SERVER_BUNDLE = path.join(rootDir, 'dist/server/main.mjs');

/** One instance of the built bundle with `env` on a free loopback port, answered once /api/health says 200. */
export async function startInstance(
  env: Record<string, string>,
  label: string,
  { batch = false, ownSession = false }: { batch?: boolean; ownSession?: boolean } = {},
): Promise<Instance> {
  if (!fs.existsSync(SERVER_BUNDLE)) throw new Error(`${SERVER_BUNDLE} is missing: run \`npm run build\` first`);
  const port = await getPort({ host: '127.0.0.1' });
  // SCALEOUT_NODE_ARGS: flags for node itself that NODE_OPTIONS refuses (--trace-opt, ...).
  const nodeArgs = (process.env.SCALEOUT_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // `batch`: under Linux's SCHED_BATCH policy (systemd's CPUSchedulingPolicy=batch; measured,
  // not shipped: docs/benchmarks/scale-out-notebook.md): `chrt` execs node in its place, so the pid is node's.
  // SCALEOUT_LAUNCHER: any other such command (`taskset -c 1`, ...), for investigations.
  const [launcher, ...launcherArgs] = [
    ...(batch ? ['chrt', '--batch', '0'] : []),
    ...(process.env.SCALEOUT_LAUNCHER ?? '').split(' ').filter(Boolean),
    process.execPath,
  ];
  const child = spawn(launcher!, [...launcherArgs, ...nodeArgs, SERVER_BUNDLE], {
    env: { PATH: process.env.PATH ?? '', ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    // `ownSession`: a session of its own (setsid), as systemd starts every service. Linux's
    // autogroup shares the CPUs between sessions first, then between the threads of each: in the
    // bench's session, the instances, nginx and the load generator would share one session's turn
    // against each PostgreSQL backend's own (a backend is a session: the postmaster setsid()s its
    // children). docs/benchmarks/scale-out-notebook.md measures both.
    detached: ownSession,
  });
  children.add(child);
  let output = '';
  // SCALEOUT_INSTANCE_LOGS=<folder>: every line each instance writes, timestamped (investigations:
  // V8's --trace-opt/--trace-gc through --node-options).
  const logDir = process.env.SCALEOUT_INSTANCE_LOGS;
  const logFile = logDir ? fs.createWriteStream(path.join(logDir, `${label.replace(/[^\w-]/g, '_')}.log`)) : undefined;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
    logFile?.write(chunk.toString().replace(/^(?=.)/gm, `${Date.now()} `));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    children.delete(child);
  };
  onCleanup(stop);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance ${label} exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`instance ${label} not healthy after 60 s:\n${output}`);
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  log(`instance ${label} (pid ${child.pid}) at ${url}`);
  return { pid: child.pid!, port, url, stop };
}

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on every Linux build in use). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system, all threads) a process has used; 0 for one that is gone. */
export function cpuSeconds(pid: number, statFile = `/proc/${pid}/stat`): number {
  const { user, system } = cpuSplit(statFile);
  return user + system;
}

/** The system (kernel) part of cpuSeconds: syscalls, page faults, network on loopback. */
export function systemSeconds(pid: number): number {
  return cpuSplit(`/proc/${pid}/stat`).system;
}

/**
 * The fields of a /proc stat line after the command name (field 2, in parentheses, may hold
 * spaces): field N of the line is index N - 3 here.
 */
function statFields(statFile: string): string[] {
  const stat = fs.readFileSync(statFile, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function cpuSplit(statFile: string): { user: number; system: number } {
  try {
    const fields = statFields(statFile);
    // Fields 14 and 15: utime and stime.
    return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
  } catch {
    return { user: 0, system: 0 };
  }
}

/**
 * CPU seconds of a process's main thread alone (its task whose id is the pid): for Node, the event
 * loop, where requests are handled; the rest (cpuSeconds minus this) is V8's helper threads
 * (garbage collection, JIT compilation) and libuv's pool.
 */
export function mainThreadSeconds(pid: number): number {
  return cpuSeconds(pid, `/proc/${pid}/task/${pid}/stat`);
}

/** The processes whose parent is `pid` (nginx's workers under its master). */
export function childPids(pid: number): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4: the parent's pid.
      const ppid = Number(statFields(`/proc/${name}/stat`)[1]);
      if (ppid === pid) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * The machine's CPU time so far, all CPUs, from /proc/stat: `idle` (idle and waiting for I/O) and
 * `total`, in seconds. The idle share of a window says whether the configuration kept the CPUs
 * busy, or waited on something else (locks, the pool, the disk) with CPU to spare.
 */
export function machineTimes(): { idle: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is in user).
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  return { idle: (ticks[3]! + ticks[4]!) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}

/**
 * CPU seconds of the load generator so far: this process (autocannon's worker threads and the
 * probes) and its children that have ended and been waited for (each wrk run; the instances and
 * nginx run until the end), from the cutime and cstime of /proc/self/stat.
 */
export function loadGeneratorSeconds(): number {
  const own = process.cpuUsage();
  // Fields 16 and 17: cutime and cstime.
  const fields = statFields('/proc/self/stat');
  return (own.user + own.system) / 1e6 + (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

/** CPU seconds of each pid, for a before/after difference. */
export const snapshot = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuSeconds(pid)]));

/**
 * CPU seconds used between two snapshots. A pid only in `after` started in between and counts in
 * full; one only in `before` ended in between and its last interval is lost (pools keep their
 * connections, so in a steady run none do).
 */
export function usedBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/**
 * Context switches of a process, all its threads (voluntary: it waited for I/O, each one a wake-up
 * later; involuntary: the scheduler took the CPU away). 0 for one that is gone.
 */
export function contextSwitches(pid: number): number {
  let total = 0;
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const status = fs.readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
      for (const match of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm)) total += Number(match[1]);
    }
  } catch {
    // gone meanwhile
  }
  return total;
}

/** TCP connections to `ports` on loopback closed in the last minute (TIME-WAIT on the closing side). */
export function closedConnectionsTo(ports: number[]): number {
  const wanted = new Set(ports.map((p) => p.toString(16).toUpperCase().padStart(4, '0')));
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 4) continue;
      // State 06 is TIME_WAIT; either end may be the instance's port.
      if (cols[3] !== '06') continue;
      const local = cols[1]!.split(':')[1]!;
      const remote = cols[2]!.split(':')[1]!;
      if (wanted.has(local) || wanted.has(remote)) count += 1;
    }
  }
  return count;
}
