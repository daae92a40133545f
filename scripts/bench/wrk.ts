/**
 * wrk (Debian's package, written in C) as the load generator: a run of `seconds` against `url`
 * with a Lua script that makes every request (its `request()`), the figures read from the line
 * its `done()` prints (WRK_DONE_LUA below, which every script must end with).
 *
 * Why beside autocannon (load.ts): autocannon parses every answer in JavaScript and took 0.5 to
 * 0.7 ms of CPU per request in bench:scale-out, a fifth of the two CPUs the servers were measured
 * on; wrk took a fifth to a tenth of that (0.05 to 0.15 ms, the bench's probes included), so the machine's CPU goes to what is measured, as when
 * the clients are elsewhere (docs/benchmarks/scale-out-notebook.md).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { LoadResult } from './load';

/** Ends a script: prints the run's figures as one JSON line for runWrk to read. */
export const WRK_DONE_LUA = `
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout))
end
`;

/** wrk's threads: one per CPU here; a script splits its work between them by the thread's `share`. */
export const WRK_THREADS = 2;

export function wrkInstalled(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

export async function runWrk(
  name: string,
  url: string,
  script: string,
  { connections, seconds }: { connections: number; seconds: number },
): Promise<LoadResult> {
  const child = spawn(
    'wrk',
    ['-t', String(WRK_THREADS), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-s', script, url],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  const line = /^WRK_RESULT (.*)$/m.exec(output)?.[1];
  if (code !== 0 || !line) throw new Error(`wrk exited with ${code}:\n${output}`);
  const r = JSON.parse(line) as {
    requests: number;
    durationUs: number;
    p50Us: number;
    p99Us: number;
    connect: number;
    read: number;
    write: number;
    status: number;
    timeout: number;
  };
  return {
    name,
    requestsPerSecond: r.requests / (r.durationUs / 1e6),
    p50: r.p50Us / 1000,
    p99: r.p99Us / 1000,
    requests: r.requests,
    // wrk counts answers of 400 and above, not which: the script's done() has no status codes.
    non2xx: r.status,
    errors: r.connect + r.read + r.write + r.timeout,
    statusCodes: r.status ? { '4xx/5xx': r.status } : {},
  };
}
