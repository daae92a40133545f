/**
 * nginx in front of the instances: the configuration the repository ships (deploy/nginx.conf:
 * by organization, or its round-robin variant; keepalive) as test/nginx.ts renders and runs it, with the
 * master's pid for the CPU figures, and a last-resort kill when this process exits without its
 * clean-ups (a signal: runBenchmark exits at once).
 */
import fs from 'node:fs';
import path from 'node:path';
import { startNginx, type NginxRouting } from '../../src/server/test/nginx';
import { onCleanup } from './harness';

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

export async function startProxy(port: number, upstreamPorts: number[], routing: NginxRouting): Promise<Proxy> {
  const nginx = await startNginx({ port, upstreams: upstreamPorts.map((p) => `127.0.0.1:${p}`), routing });
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
    (stopped ??= nginx.stop().finally(() => {
      masters.delete(pid);
    }));
  onCleanup(stop);
  return { pid, url: nginx.url, stop };
}
