import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { recipientLinks, recipientSessions } from '../../db/schema';
import { RECIPIENT_SESSION_COOKIE } from '../../plugins/recipient-session';
import { Client, joinAs, type TestApp } from '../../test/harness';
import { createTestAppWithSmtp, type TestSmtp } from '../../test/smtp';
import { testWorkers } from '../../test/notification-workers';

/**
 * Deactivating a recipient ends their page (issue 41 item 8): their sessions and unused links are
 * deleted, so reactivating them gives nothing back until they ask for a new link. The probe:
 * deactivate, reactivate, and the old session cookie (30 days) and the link still in the inbox
 * opened the page again.
 */

let smtp: TestSmtp;
let t: TestApp;
beforeAll(async () => {
  ({ t, smtp } = await createTestAppWithSmtp());
});
const workers = testWorkers();

const unique = () => crypto.randomUUID().slice(0, 8);
let lastIp = 0;
const ip = () => `198.18.${Math.floor(++lastIp / 250)}.${(lastIp % 250) + 1}`;

/** A browser on the recipient's page from its own address: it keeps the portal cookie. */
function browser(remoteAddress = ip()) {
  let cookie: string | undefined;
  return async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url,
      remoteAddress,
      headers: cookie ? { cookie } : {},
      ...(payload ? { payload } : {}),
    });
    const set = res.cookies.find((c) => c.name === RECIPIENT_SESSION_COOKIE);
    if (set) cookie = set.value ? `${RECIPIENT_SESSION_COOKIE}=${set.value}` : undefined;
    return res;
  };
}

/** Asks for a link for `email` and answers the token in the email that arrives. */
async function linkFor(email: string) {
  const before = smtp.received.length;
  const asked = await browser()('POST', '/api/portal/links', { address: email });
  expect(asked.statusCode, asked.body).toBe(202);
  await t.app.portalLinksSent();
  // The links are in the outbox: the worker sends them (decision 054).
  await workers.drain(t);
  // The link's email, not an arrival email to the same person that the same drain may send first.
  const mail = smtp.received.slice(before).find((m) => m.to.includes(email) && m.text.includes('/my/open#token='));
  return /\/my\/open#token=([\w-]+)/.exec(mail!.text)![1]!;
}

async function signedIn(email: string) {
  const page = browser();
  const opened = await page('POST', '/api/portal/session', { token: await linkFor(email) });
  expect(opened.statusCode, opened.body).toBe(200);
  expect((await page('GET', '/api/portal/me')).statusCode).toBe(200);
  return page;
}

async function desk() {
  const admin = new Client(t);
  await admin.register();
  const org = await admin.createOrganization(`Harbor View ${unique()}`);
  const { client: member } = await joinAs(t, org.id);
  const email = `amara.${unique()}@example.com`;
  const res = await admin.post('/api/recipients', { firstName: 'Amara', lastName: 'Okafor', email });
  expect(res.statusCode, res.body).toBe(201);
  return { admin, member, org, email, recipient: res.json<{ id: string }>() };
}

/** The recipient's page access rows: sessions and links (used or not). */
async function pageAccessOf(recipientId: string) {
  const [sessions] = await t.db
    .select({ n: count() })
    .from(recipientSessions)
    .where(eq(recipientSessions.recipientId, recipientId));
  const [links] = await t.db
    .select({ n: count() })
    .from(recipientLinks)
    .where(eq(recipientLinks.recipientId, recipientId));
  return { sessions: sessions!.n, links: links!.n };
}

describe('deactivating a recipient ends their page', () => {
  it('deletes their sessions and unused links: reactivated, the old session and the old link open nothing', async () => {
    const { member, email, recipient } = await desk();
    const page = await signedIn(email);
    // A link they asked for and have not opened yet.
    const waiting = await linkFor(email);

    const off = await member.put(`/api/recipients/${recipient.id}`, { isActive: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(await pageAccessOf(recipient.id)).toEqual({ sessions: 0, links: 0 });
    expect((await page('GET', '/api/portal/me')).statusCode).toBe(401);

    const on = await member.put(`/api/recipients/${recipient.id}`, { isActive: true });
    expect(on.statusCode, on.body).toBe(200);
    // Today's code suspended them: both came back for the rest of their life.
    expect((await page('GET', '/api/portal/me')).statusCode).toBe(401);
    const opened = await browser()('POST', '/api/portal/session', { token: waiting });
    expect(opened.statusCode, opened.body).toBe(400);
    expect(opened.json()).toMatchObject({ code: 'link_invalid' });

    // A new link works as ever.
    await signedIn(email);
  });

  it('leaves the page alone for any other change, a refused change, and another organization', async () => {
    const { admin, email, recipient } = await desk();
    const page = await signedIn(email);
    const renamed = await admin.put(`/api/recipients/${recipient.id}`, { unit: '4B' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const invalid = await admin.put(`/api/recipients/${recipient.id}`, { isActive: 'no' });
    expect(invalid.statusCode).toBe(400);
    // Signed out, and another organization's admin: refused, nothing ends.
    const signedOut = await new Client(t).put(`/api/recipients/${recipient.id}`, { isActive: false });
    expect(signedOut.statusCode).toBe(401);
    const stranger = new Client(t);
    await stranger.register();
    await stranger.createOrganization('Elsewhere');
    const theirs = await stranger.put(`/api/recipients/${recipient.id}`, { isActive: false });
    expect(theirs.statusCode).toBe(404);
    expect(await pageAccessOf(recipient.id)).toMatchObject({ sessions: 1 });
    expect((await page('GET', '/api/portal/me')).statusCode).toBe(200);
  });
});
