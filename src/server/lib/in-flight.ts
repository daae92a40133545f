import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    inFlight: ReturnType<typeof trackInFlight>;
  }
}

/**
 * Counts requests between arrival and reply. Closing the HTTP server waits for open connections,
 * but a request whose client already hung up keeps running its handler; shutdown waits for those
 * too before the database pool closes under them.
 */
export function trackInFlight(app: FastifyInstance) {
  let count = 0;
  let onIdle: (() => void) | undefined;
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async () => {
    count += 1;
  });
  app.addHook('onSend', async (_request, reply) => {
    // Once closing, a reply ends its keep-alive connection: the server stops waiting for it as
    // soon as the reply is out, instead of until the client's idle timeout (a request in flight at
    // SIGTERM would otherwise hold the exit until the forced one). nginx opens a new connection to
    // another instance for its next request.
    if (closing) reply.header('connection', 'close');
    count = Math.max(0, count - 1);
    if (count === 0) onIdle?.();
  });
  return {
    /** Requests being served right now. */
    get count() {
      return count;
    },
    drained(timeoutMs: number): Promise<void> {
      if (count === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        onIdle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}
