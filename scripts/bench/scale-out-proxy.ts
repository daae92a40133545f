/**
 * nginx in front of the instances (Debian's package), round robin, no sticky sessions, in a
 * folder of its own: started in the foreground as a child, stopped at the end (and killed when
 * this process exits, however it exits).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { onCleanup } from './harness';

export type Proxy = { pid: number; url: string; stop: () => Promise<void> };

const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

export function nginxConfig(dir: string, port: number, upstreamPorts: number[]): string {
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  return `worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  upstream pigeonhole {
    ${upstreamPorts.map((p) => `server 127.0.0.1:${p};`).join('\n    ')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 20m;
    location / {
      proxy_pass http://pigeonhole;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`;
}

const processes = new Set<ChildProcess>();
process.on('exit', () => {
  // SIGTERM, not SIGKILL: the master then stops its workers, which a killed master would leave running.
  for (const child of processes) if (child.exitCode === null) child.kill('SIGTERM');
});

export async function startProxy(port: number, upstreamPorts: number[], dir: string): Promise<Proxy> {
  await fs.mkdir(dir, { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  await fs.writeFile(conf, nginxConfig(dir, port, upstreamPorts));
  const child = spawn(NGINX, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', conf, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  processes.add(child);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGQUIT: graceful shutdown (its workers finish their requests); SIGKILL leaves workers behind.
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGTERM'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    processes.delete(child);
  };
  onCleanup(stop);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 15 s: ${stderr}`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { pid: child.pid!, url, stop };
}
