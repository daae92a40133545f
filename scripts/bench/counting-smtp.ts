/**
 * A local SMTP server for the queue benchmarks (notifications.ts, pg-boss-probe.ts): it keeps only
 * each message's Message-ID, how often it came and when it first arrived, so a run can prove that
 * none was lost or sent twice and measure how long a message took from its queue to the server.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { log, onCleanup } from './harness';

export type CountingSmtp = {
  url: string;
  /** Message-ID → times received. */
  seen: Map<string, number>;
  /** Message-ID → performance.now() of its first arrival. */
  arrivedAt: Map<string, number>;
  received: () => number;
};

/** `ignore`: addresses whose messages are not counted (the account emails of the bench's sign-up). */
export async function startCountingSmtp(ignore: string[] = []): Promise<CountingSmtp> {
  const seen = new Map<string, number>();
  const arrivedAt = new Map<string, number>();
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Many messages per pooled connection.
    maxClients: 100,
    onData(stream, session, callback) {
      if (session.envelope.rcptTo.every((r) => ignore.includes(r.address))) {
        stream.on('end', () => callback());
        stream.resume();
        return;
      }
      let head = '';
      let done = false;
      stream.on('data', (c: Buffer) => {
        if (done) return;
        head += c.toString('utf8');
        if (head.includes('\r\n\r\n')) done = true;
      });
      stream.on('end', () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1] ?? '(none)';
        seen.set(id, (seen.get(id) ?? 0) + 1);
        if (!arrivedAt.has(id)) arrivedAt.set(id, performance.now());
        received += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    seen,
    arrivedAt,
    received: () => received,
  };
}

/** p50, p95 and max of a list of milliseconds, as table cells. */
export function latencyCells(ms: number[]): { p50: string; p95: string; max: string } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const cell = (v: number) => `${v.toFixed(0)} ms`;
  return { p50: cell(at(0.5)), p95: cell(at(0.95)), max: cell(sorted.at(-1) ?? NaN) };
}

/** Waits until `ids` have all arrived (as `<id@pigeonhole>`), or the deadline passes. */
export async function waitForArrivals(smtp: CountingSmtp, ids: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (ids.some((id) => !smtp.arrivedAt.has(`<${id}@pigeonhole>`))) {
    if (Date.now() > deadline) throw new Error('messages did not arrive in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Polls `done()` every 250 ms until it reaches `total`, logging each tenth; throws past the
 * deadline with `state()` for the message.
 */
export async function waitUntilDrained(
  done: () => Promise<number>,
  total: number,
  deadline: number,
  state: () => string = () => '',
) {
  let last = -1;
  for (let n = await done(); n < total; n = await done()) {
    if (Date.now() > deadline) throw new Error(`not drained in time: ${n} of ${total} ${state()}`);
    if (n - last >= total / 10) {
      log(`${n} / ${total} done`);
      last = n;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
