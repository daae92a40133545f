import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import getPort from 'get-port';

export type StartCommand = { command: string; args: string[]; label: string; fallback: boolean };

const POLL_MS = 25;
const STOP_TIMEOUT_MS = 20_000;

/** What `npm start` runs; before scripts/start.mjs exists, the server entry point through tsx. */
export function startCommand(rootDir: string): StartCommand {
  if (fs.existsSync(path.join(rootDir, 'scripts/start.mjs'))) {
    return { command: process.execPath, args: ['scripts/start.mjs'], label: 'node scripts/start.mjs', fallback: false };
  }
  return { command: 'npx', args: ['tsx', 'src/server/main.ts'], label: 'npx tsx src/server/main.ts', fallback: true };
}

/**
 * Spawns the server on the existing data folder and returns the milliseconds from spawn until
 * GET /api/health answers 200; then stops it with SIGTERM and waits for it to exit, so the next
 * run finds the embedded cluster free.
 */
export async function timeStartUp(
  start: StartCommand,
  rootDir: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<number> {
  const port = await getPort({ host: '127.0.0.1' });
  const started = performance.now();
  const child = spawn(start.command, start.args, {
    cwd: rootDir,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running = child;
  const output = collectOutput(child);
  try {
    await waitForHealth(`http://127.0.0.1:${port}/api/health`, child, timeoutMs, output);
    return performance.now() - started;
  } finally {
    await stopChild(child);
    running = undefined;
  }
}

let running: ChildProcess | undefined;

/** For the exit handler: a start-up run interrupted by a signal must not outlive the benchmark. */
export function killRunningServer() {
  running?.kill('SIGTERM');
}

function collectOutput(child: ChildProcess): () => string {
  let text = '';
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => text;
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number, output: () => string) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}) before answering:\n${output()}`);
    }
    if (await answers200(url)) return;
    await sleep(POLL_MS);
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms:\n${output()}`);
}

async function answers200(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false; // not listening yet
  }
}

/** SIGTERM lets the server stop its embedded PostgreSQL cleanly; SIGKILL only if it hangs. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
