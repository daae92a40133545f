import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp } from '../test/smtp';
import { guardedSmtpSocket, outboundFetch, PrivateTargetError } from './outbound';
import { startReceiver } from '../modules/integrations/test-receiver';

/**
 * The guard sits in the connection itself: the name is resolved once, while connecting, and the
 * socket goes to the address that was checked. A name checked earlier that resolves to a private
 * address by the time of the connection (DNS rebinding) is refused there. `localhost` stands in
 * for such a name: nothing is checked before the call, only inside it.
 */

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
beforeAll(async () => {
  receiver = await startReceiver();
  receiver.respondWith(() => ({ status: 204 }));
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await receiver.close();
  await smtp.close();
});

const port = (url: string) => new URL(url).port;

describe('outboundFetch', () => {
  it('refuses a name that resolves to loopback when connecting, and a literal private address', async () => {
    const guarded = outboundFetch(false);
    await expect(guarded(`http://localhost:${port(receiver.url)}/hook`, { method: 'POST' })).rejects.toSatisfy(
      (err: Error) => (err.cause ?? err) instanceof PrivateTargetError,
    );
    await expect(guarded(`http://127.0.0.1:${port(receiver.url)}/hook`, { method: 'POST' })).rejects.toBeInstanceOf(
      PrivateTargetError,
    );
    await expect(guarded(`http://[::ffff:127.0.0.1]:${port(receiver.url)}/`, {})).rejects.toBeInstanceOf(
      PrivateTargetError,
    );
    await expect(guarded('file:///etc/passwd', {})).rejects.toBeInstanceOf(PrivateTargetError);
    expect(receiver.received).toHaveLength(0);
  });

  it('reaches a loopback receiver only when ALLOW_PRIVATE_TARGETS says so', async () => {
    const res = await outboundFetch(true)(`http://localhost:${port(receiver.url)}/hook`, {
      method: 'POST',
      body: '{}',
    });
    expect(res.status).toBe(204);
    expect(receiver.received).toHaveLength(1);
  });
});

describe('guardedSmtpSocket', () => {
  const connect = (allow: boolean, host: string) =>
    new Promise<net.Socket>((resolve, reject) =>
      guardedSmtpSocket(allow)({ host, port: port(smtp.url) || 25 }, (err, socket) =>
        err ? reject(err) : resolve(socket!.connection),
      ),
    );

  it('refuses an SMTP host that is or resolves to a private address', async () => {
    await expect(connect(false, 'localhost')).rejects.toBeInstanceOf(PrivateTargetError);
    await expect(connect(false, '127.0.0.1')).rejects.toBeInstanceOf(PrivateTargetError);
  });

  it('connects when private targets are allowed', async () => {
    const socket = await connect(true, '127.0.0.1');
    expect(socket.remoteAddress).toBe('127.0.0.1');
    socket.destroy();
  });
});
