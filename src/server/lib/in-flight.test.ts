import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { trackInFlight } from './in-flight';

describe('trackInFlight', () => {
  it('resolves drained() only once the running handler has replied', async () => {
    const app = Fastify();
    const inFlight = trackInFlight(app);
    let release!: () => void;
    app.get('/slow', async () => {
      await new Promise<void>((r) => (release = r));
      return { ok: true };
    });
    await app.ready();
    const response = app.inject({ method: 'GET', url: '/slow' });
    await new Promise((r) => setTimeout(r, 20));
    let drained = false;
    const waiting = inFlight.drained(5000).then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(drained).toBe(false);
    release();
    await waiting;
    expect(drained).toBe(true);
    expect((await response).statusCode).toBe(200);
    await app.close();
  });
});
