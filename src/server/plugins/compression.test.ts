import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, signUpWithOrganization, type TestApp } from '../test/harness';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  ({ client: admin } = await signUpWithOrganization(t, 'Compressed Courts'));
  for (let i = 0; i < 30; i += 1) {
    const res = await admin.post('/api/mail-items', {
      type: 'package',
      sender: `Sender number ${i}`,
      notes: 'x'.repeat(60),
    });
    expect(res.statusCode).toBe(201);
  }
});

describe('compressed replies', () => {
  it('compresses a list page when the client offers brotli or gzip, to the same JSON', async () => {
    const plain = await admin.get('/api/mail-items?limit=30');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const body = plain.json();
    expect(body.items ?? body).toHaveLength(30);

    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const res = await admin.get('/api/mail-items?limit=30', { 'accept-encoding': encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      const raw = res.rawPayload;
      expect(raw.length).toBeLessThan(plain.rawPayload.length / 3);
      expect(JSON.parse(decode(raw).toString('utf8'))).toEqual(body);
    }
  });

  it('leaves small replies alone', async () => {
    const res = await admin.get('/api/auth/user', { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toHaveProperty('email');
  });
});
