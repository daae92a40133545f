import { expect } from 'vitest';
import { RECIPIENT_SESSION_COOKIE } from '../plugins/recipient-session';
import type { TestApp } from './harness';
import type { TestSmtp } from './smtp';

/**
 * A browser on the recipient's page from `remoteAddress`, signed in as the recipient does it
 * (decision 032): it asks for a link for `email`, `send` puts the outbox's message through (a
 * worker does, decision 054), and the token of the email that arrives opens the session. Answers
 * a request to the page from that address, with the page's cookie.
 */
export async function signedInToRecipientPage(
  t: TestApp,
  smtp: TestSmtp,
  email: string,
  { remoteAddress, send }: { remoteAddress: string; send: () => Promise<void> },
) {
  const before = smtp.received.length;
  const asked = await t.app.inject({
    method: 'POST',
    url: '/api/portal/links',
    remoteAddress,
    payload: { address: email },
  });
  expect(asked.statusCode, asked.body).toBe(202);
  await t.app.portalLinksSent();
  await send();
  const mail = smtp.received.slice(before).find((m) => m.to.includes(email));
  const token = /\/my\/open#token=([\w-]+)/.exec(mail!.text)![1]!;
  const opened = await t.app.inject({ method: 'POST', url: '/api/portal/session', remoteAddress, payload: { token } });
  expect(opened.statusCode, opened.body).toBe(200);
  const cookie = opened.cookies.find((c) => c.name === RECIPIENT_SESSION_COOKIE)!;
  return (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, remoteAddress, headers: { cookie: `${cookie.name}=${cookie.value}` }, payload });
}
