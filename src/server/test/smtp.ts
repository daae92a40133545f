import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { atFileEnd } from './file-cleanups';
import { createTestApp } from './harness';
import { testWorkers } from './notification-workers';

export type ReceivedMail = { from: string; to: string[]; raw: string; subject: string; text: string };

/**
 * A real SMTP server on loopback that keeps what it receives. `text` is the raw message with
 * quoted-printable soft breaks and escapes undone, enough to find links in it. While
 * `state.refusing` it refuses every recipient with 451 (try later), as a busy server does, and
 * counts them in `state.refused`.
 */
export async function startTestSmtp({ refusing = false } = {}) {
  const received: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const state = { refusing, refused: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!state.refusing) return callback();
      state.refused += 1;
      callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
          text: decodeQuotedPrintable(raw),
        });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    state,
    /** Resolves with the first message to `to` received so far or later (up to 5 s). */
    /** The first email to `to` (whose subject matches `subject`, when given). */
    async waitFor(to: string, options: { subject?: RegExp; timeoutMs?: number } = {}): Promise<ReceivedMail> {
      const timeoutMs = options.timeoutMs ?? 5000;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((m) => m.to.includes(to) && (!options.subject || options.subject.test(m.subject)));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no email to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtp = Awaited<ReturnType<typeof startTestSmtp>>;

/**
 * A test app whose email goes to a test SMTP server of its own, its links to
 * http://pigeonhole.test; both are closed after the file. Call in beforeAll.
 */
export async function createTestAppWithSmtp(
  env: Record<string, string> = {},
  smtpOptions: Parameters<typeof startTestSmtp>[0] = {},
) {
  const smtp = await startTestSmtp(smtpOptions);
  atFileEnd(() => smtp.close());
  const t = await createTestApp({ SMTP_URL: smtp.url, APP_URL: 'http://pigeonhole.test', ...env });
  return { t, smtp };
}

/**
 * The app of a file about what is sent: createTestAppWithSmtp, and the file's notification workers
 * with `drain`, which sends every message that is due, as the worker does in production, then
 * stops. Call at the top level of the file: `const { t, smtp, drain } = await mailTestApp();`.
 */
export async function mailTestApp(...args: Parameters<typeof createTestAppWithSmtp>) {
  const workers = testWorkers();
  const { t, smtp } = await createTestAppWithSmtp(...args);
  return { t, smtp, workers, drain: () => workers.drain(t) };
}

function decodeQuotedPrintable(s: string) {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
