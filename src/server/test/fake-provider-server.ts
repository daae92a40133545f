import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake provider received, kept for tests to look at. */
export type ProviderRequest<Body> = {
  method: string;
  /** Without the query string. */
  path: string;
  body: Body;
  headers: http.IncomingHttpHeaders;
};

/** A JSON answer. */
export type JsonReply = { status: number; body: unknown };

/**
 * The HTTP side shared by the fake payment providers (stripe-server.ts, paypal-server.ts): a real
 * server on loopback that reads each request's body with `body` (given the request, its body as
 * text and its URL), keeps the request in `requests`, and answers it
 * with `answer` as JSON, or with `outage()` while set down; `headers()` adds the provider's own
 * headers (a request id) to every answer.
 */
export async function startFakeProvider<Body>(handlers: {
  body: (req: http.IncomingMessage, raw: string, url: URL) => Body;
  answer: (request: ProviderRequest<Body>) => JsonReply;
  outage: () => JsonReply;
  headers: () => Record<string, string>;
}) {
  const requests: ProviderRequest<Body>[] = [];
  let down = false;
  let base = '';
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const request = {
        method: req.method ?? '',
        path: url.pathname,
        body: handlers.body(req, raw, url),
        headers: req.headers,
      };
      requests.push(request);
      const reply = down ? handlers.outage() : handlers.answer(request);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...handlers.headers() });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    setDown(value: boolean) {
      down = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
