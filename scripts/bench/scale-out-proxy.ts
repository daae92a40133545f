/**
 * nginx in front of the instances: the configuration the repository ships (deploy/nginx.conf:
 * by organization, or its round-robin variant; keepalive) as test/nginx.ts renders and runs it, with the
 * master's pid for the CPU figures, and a last-resort kill when this process exits without its
 * clean-ups (a signal: runBenchmark exits at once).
 */
import fs from 'node:fs';
import path from 'node:path';
import { startNginx, type NginxRouting } from '../../src/server/test/nginx';
import { log, onCleanup } from './harness';

export type Proxy = { pid: number; url: string; stop: () => Promise<void> };

const masters = new Set<number>();
process.on('exit', () => {
  // SIGTERM, not SIGKILL: the master then stops its workers, which a killed master would leave running.
  for (const pid of masters) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
});

export async function startProxy(
  port: number,
  upstreamPorts: number[],
  routing: NginxRouting,
  { ownSession = false }: { ownSession?: boolean } = {},
): Promise<Proxy> {
  const upstreams = upstreamPorts.map((p) => `127.0.0.1:${p}`);
  const nginx = await startNginx({ port, upstreams, routing, ownSession });
  // startNginx writes its pid file beside its error log, in its own folder.
  const pidFile = path.join(path.dirname(nginx.errorLog), 'nginx.pid');
  let pid = 0;
  for (let waited = 0; !pid && waited < 5000; waited += 50) {
    pid = Number(fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8').trim() : 0) || 0;
    if (!pid) await new Promise((r) => setTimeout(r, 50));
  }
  if (!pid) throw new Error(`nginx wrote no pid to ${pidFile}`);
  masters.add(pid);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= reportErrors(nginx.errorLog).then(() =>
      nginx.stop().finally(() => {
        masters.delete(pid);
      }),
    ));
  onCleanup(stop);
  return { pid, url: nginx.url, stop };
}

/**
 * What nginx logged at warn or above (an instance marked down, a connection reset, a body buffered
 * to disk): a configuration whose organizations moved between instances mid-run measures something
 * else than it says, so the bench says so before the folder goes.
 */
async function reportErrors(errorLog: string) {
  const lines = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8').split('\n').filter(Boolean) : [];
  if (lines.length === 0) return;
  const kinds = new Map<string, number>();
  for (const line of lines) {
    // "2026/11/29 14:20:01 [error] 123#123: *456 connect() failed (111: ...) while connecting to upstream, ..."
    const kind = line
      .replace(/^\S+ \S+ /, '')
      .replace(/\d+#\d+: (\*\d+ )?/, '')
      .replace(/, client:.*$/, '');
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  log(`nginx logged ${lines.length} line(s) at warn or above:`);
  for (const [kind, count] of kinds) log(`  ${count} x ${kind.slice(0, 200)}`);
}
