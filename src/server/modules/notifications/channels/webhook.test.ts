import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { sendWebhook, signWebhook } from './webhook';

type Received = { headers: Record<string, string>; body: string };
const received: Received[] = [];
let url: string;
let server: http.Server;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const whsec = () => `whsec_${crypto.randomBytes(24).toString('base64')}`;

describe('webhook deliveries (Standard Webhooks)', () => {
  it('sends webhook-id, webhook-timestamp and a v1 signature that the standardwebhooks library verifies', async () => {
    const secret = whsec();
    const id = crypto.randomUUID();
    const body = JSON.stringify({
      type: 'mail_item.created',
      data: { mailItem: { id: 'x', sender: 'Zoë — 包裹 📦' } },
    });
    const before = Math.floor(Date.now() / 1000);
    const result = await sendWebhook({ url, id, secret, body, allowPrivateTargets: true });
    expect(result).toMatchObject({ ok: true, responseStatus: 204 });

    const req = received.at(-1)!;
    expect(req.body).toBe(body);
    expect(req.headers['webhook-id']).toBe(id);
    expect(Number(req.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(req.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(req.body, req.headers)).toEqual(JSON.parse(body));

    // Another secret, a changed body or a changed id does not verify.
    expect(() => new Webhook(whsec()).verify(req.body, req.headers)).toThrow();
    expect(() => new Webhook(secret).verify(req.body.replace('Zoë', 'Zoe'), req.headers)).toThrow();
    expect(() => new Webhook(secret).verify(req.body, { ...req.headers, 'webhook-id': 'other' })).toThrow();
  });

  it('signs exactly as a hand-written HMAC-SHA256 over id.timestamp.body would (the format receivers already check)', () => {
    const secret = whsec();
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const body = '{"type":"test"}';
    const expected = crypto.createHmac('sha256', key).update(`msg_1.1700000000.${body}`).digest('base64');
    expect(signWebhook(secret, 'msg_1', 1_700_000_000, body)).toBe(`v1,${expected}`);
  });

  it('sends no signature without a secret, and refuses for good a secret that is not base64 (sending nothing)', async () => {
    const count = received.length;
    expect(await sendWebhook({ url, id: 'a', secret: undefined, body: '{}', allowPrivateTargets: true })).toMatchObject(
      { ok: true },
    );
    expect(received.at(-1)!.headers['webhook-signature']).toBeUndefined();
    expect(
      await sendWebhook({ url, id: 'b', secret: 'whsec_not*base64', body: '{}', allowPrivateTargets: true }),
    ).toMatchObject({ ok: false, permanent: true });
    expect(received).toHaveLength(count + 1);
  });
});
