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
  app.addHook('onRequest', async () => {
    count += 1;
  });
  app.addHook('onSend', async () => {
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
