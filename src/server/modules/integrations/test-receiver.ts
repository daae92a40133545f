import http from 'node:http';
import type { AddressInfo } from 'node:net';

type ReceivedRequest = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };

/**
 * A local HTTP receiver for tests (an SMS provider, a webhook endpoint): keeps every request and
 * answers with what `respond` says (201 `{}` by default).
 */
export async function startReceiver() {
  const received: ReceivedRequest[] = [];
  let respond: (req: ReceivedRequest) => { status: number; body?: unknown; delayMs?: number } = () => ({
    status: 201,
    body: {},
  });
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const r = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      received.push(r);
      const answer = respond(r);
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body ?? {}));
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    respondWith(fn: typeof respond) {
      respond = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
