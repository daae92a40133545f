import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './pg-cluster';

/** Debian's nginx (NGINX_BIN to use another). */
const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

/** The configuration the repository ships, which the tests run (decision 039). */
const SHIPPED_NGINX_CONF = fileURLToPath(new URL('../../../deploy/nginx.conf', import.meta.url));

/** Why nginx-dependent tests cannot run here, or null when they can. */
export function nginxMissing(): string | null {
  try {
    fs.accessSync(NGINX_BIN, fs.constants.X_OK);
    return null;
  } catch {
    return `nginx not found at ${NGINX_BIN} (apt-get install nginx, or set NGINX_BIN)`;
  }
}

/**
 * How nginx picks an instance. `organization` is what ships (decision 045): requests naming an
 * organization (the x-organization-id header) go to one instance per organization by consistent
 * hashing, the others round robin. `round-robin` drops that line: every request to the next
 * instance, which the correctness tests use, so that a write and the next read of one organization
 * really are served by different instances.
 */
export type NginxRouting = 'organization' | 'round-robin';

type NginxOptions = {
  listenPort: number;
  /** host:port of each app instance, in round-robin order. */
  upstreams: string[];
  /** Where nginx keeps its temp files (a folder of the test's own). */
  tempDir: string;
  /** Default: as shipped (`organization`). */
  routing?: NginxRouting;
  /**
   * The addresses allowed /metrics and /api/ready (the `geo $ops_allowed` list). Default: as
   * shipped (loopback). The tests' requests come from 127.0.0.1, so a list without it shows the
   * refusal and one with it the pass.
   */
  opsAllow?: string[];
};

/**
 * deploy/nginx.conf with its lines marked `# test: <name>` replaced for a run on loopback by an
 * unprivileged nginx: the given upstreams and port, temp paths inside `tempDir`, no access log,
 * one worker, and the routing line dropped for `round-robin`. Everything else (headers, timeouts,
 * retries, body size, keepalive) is exactly what ships, so a change there is tested. Throws if a
 * marker is missing (the file and this function disagree).
 */
function renderNginxConfig({
  listenPort,
  upstreams,
  tempDir,
  routing = 'organization',
  opsAllow,
}: NginxOptions): string {
  if (upstreams.length === 0) throw new Error('renderNginxConfig: at least one upstream');
  const source = fs.readFileSync(SHIPPED_NGINX_CONF, 'utf8');
  const seen = new Set<string>();
  let upstreamsWritten = false;
  let opsAllowWritten = false;
  const lines = source.split('\n').flatMap((line) => {
    const marker = /#\s*test:\s*(\w+)\s*$/.exec(line);
    if (!marker) return [line];
    const name = marker[1]!;
    seen.add(name);
    const indent = /^\s*/.exec(line)![0];
    switch (name) {
      case 'worker_processes':
        return [`${indent}worker_processes 1;`];
      case 'client_body_temp_path':
      case 'proxy_temp_path':
      case 'fastcgi_temp_path':
      case 'uwsgi_temp_path':
      case 'scgi_temp_path':
        return [`${indent}${name} ${path.join(tempDir, name.replace(/_temp_path$/, ''))};`];
      case 'access_log':
        return [`${indent}access_log off;`];
      case 'listen':
        return [`${indent}listen 127.0.0.1:${listenPort};`];
      case 'routing':
        // Without a balancing method nginx goes round robin.
        return routing === 'round-robin' ? [] : [line];
      case 'upstreams': {
        // The shipped file lists three; the first marked line becomes the test's list.
        if (upstreamsWritten) return [];
        upstreamsWritten = true;
        const options = line.replace(/#.*$/, '').trim().split(/\s+/).slice(2).join(' ');
        return upstreams.map((u) => `${indent}server ${u}${options ? ` ${options}` : ''}`);
      }
      case 'ops_allow': {
        if (!opsAllow) return [line];
        // Like the upstreams: the first marked line becomes the test's list.
        if (opsAllowWritten) return [];
        opsAllowWritten = true;
        return opsAllow.map((address) => `${indent}${address} 1;`);
      }
      default:
        throw new Error(`deploy/nginx.conf: unknown test marker "${name}"`);
    }
  });
  for (const required of ['listen', 'upstreams', 'routing', 'client_body_temp_path', 'proxy_temp_path', 'ops_allow']) {
    if (!seen.has(required)) throw new Error(`deploy/nginx.conf: the "# test: ${required}" marker is missing`);
  }
  // Root's nginx hands its workers to an unprivileged user (as Debian's own configuration does);
  // an unprivileged nginx cannot switch users and must not be told to.
  const user = process.getuid?.() === 0 ? ['user nobody nogroup;'] : [];
  return [...user, ...lines].join('\n');
}

export type RunningNginx = {
  url: string;
  port: number;
  /** The rendered configuration (for a failing test's message). */
  config: string;
  /** Where nginx writes its errors (which upstream failed and why). */
  errorLog: string;
  stop(): Promise<void>;
};

/**
 * nginx in the foreground as a child process, on the rendered deploy/nginx.conf, in a temp folder
 * of its own (prefix, configuration, pid, error log, temp files): nothing of the machine's nginx
 * is read or touched. Resolves once it accepts connections.
 */
export async function startNginx({
  upstreams,
  port,
  routing,
  opsAllow,
  ownSession = false,
}: {
  upstreams: string[];
  port?: number;
  routing?: NginxRouting;
  opsAllow?: string[];
  /** A session of its own (setsid), as a service manager starts it (the scale-out bench's placement). */
  ownSession?: boolean;
}): Promise<RunningNginx> {
  const missing = nginxMissing();
  if (missing) throw new Error(missing);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'pigeonhole-nginx-'));
  // The workers (nobody, under root) create their temp folders inside it.
  await fsp.chmod(dir, 0o755);
  const listenPort = port ?? (await freePort());
  const config = renderNginxConfig({ listenPort, upstreams, tempDir: dir, routing, opsAllow });
  const confPath = path.join(dir, 'nginx.conf');
  const errorLog = path.join(dir, 'error.log');
  await fsp.writeFile(confPath, config);
  // mime.types and friends are not needed; -e sends nginx's start-up errors (before the
  // configuration is read) to the folder too, not to /var/log/nginx.
  const args = [
    '-p',
    dir,
    '-c',
    confPath,
    '-e',
    errorLog,
    '-g',
    `daemon off; master_process on; pid ${path.join(dir, 'nginx.pid')}; error_log ${errorLog} warn;`,
  ];
  const child = spawn(NGINX_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: ownSession });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // QUIT: graceful (in-flight requests finish); TERM after 5 s.
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGTERM'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await fsp.rm(dir, { recursive: true, force: true });
  };

  try {
    await waitForPort(listenPort, child, () => stderr);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `http://127.0.0.1:${listenPort}`, port: listenPort, config, errorLog, stop };
}

async function waitForPort(port: number, child: ChildProcess, stderr: () => string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`nginx exited with ${child.exitCode}: ${stderr().trim()}`);
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port} within 10 s: ${stderr().trim()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
