import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notificationJobs } from '../../db/schema';
import { PLATFORM_MESSAGE_EVENTS } from '../../lib/outbox';
import { Client } from '../../test/harness';
import { mailTestApp } from '../../test/smtp';

/**
 * The platform's own messages (decision 054) ride the outbox: a mail server that refuses them
 * gets them again later (retried, not lost), and no row of the outbox ever holds a working link.
 */

// A mail server that refuses every recipient (451, try later) until the test says otherwise.
const { t, smtp, workers } = await mailTestApp({}, { refusing: true });

const unique = () => crypto.randomUUID().slice(0, 8);

describe('the platform messages through the outbox', () => {
  it('are retried when the mail server refuses them, then arrive with working links; the outbox never holds one', async () => {
    // One message of each kind that carries a link: verification, reset, invitation, recipient's page.
    const admin = new Client(t);
    const account = await admin.register();
    const org = await admin.createOrganization(`Flaky ${unique()}`);
    const invitee = `invitee.${unique()}@example.com`;
    expect((await admin.post('/api/user-invitations', { email: invitee })).statusCode).toBe(201);
    const recipientEmail = `amara.${unique()}@example.com`;
    expect(
      (await admin.post('/api/recipients', { firstName: 'Amara', lastName: 'Okafor', email: recipientEmail }))
        .statusCode,
    ).toBe(201);
    expect((await new Client(t).post('/api/portal/links', { address: recipientEmail })).statusCode).toBe(202);
    await t.app.portalLinksSent();
    expect((await new Client(t).post('/api/forgot-password', { email: account.email })).statusCode).toBe(200);

    const events = [
      PLATFORM_MESSAGE_EVENTS.verifyEmail,
      PLATFORM_MESSAGE_EVENTS.passwordLink,
      PLATFORM_MESSAGE_EVENTS.invitation,
      PLATFORM_MESSAGE_EVENTS.portalLink,
    ];
    const jobs = async () => t.db.select().from(notificationJobs).where(inArray(notificationJobs.event, events));
    // The reset is queued after the reply (the reply must not tell who has an account).
    for (let i = 0; i < 100 && (await jobs()).length < 4; i += 1) await new Promise((r) => setTimeout(r, 20));

    // First attempt: the server refuses every one; each waits for its retry.
    await workers.drain(t);
    const refused = await jobs();
    expect(refused.map((j) => j.event).sort()).toEqual([...events].sort());
    for (const job of refused) {
      expect(job).toMatchObject({ status: 'queued', attempts: 1 });
      expect(job.lastError).toMatch(/451|try again/i);
      expect(JSON.stringify(job.payload)).toContain('__LINK_TOKEN__');
    }
    expect(smtp.received).toEqual([]);
    expect(smtp.state.refused).toBeGreaterThanOrEqual(4);

    // The server is back and the backoff has run out: the retry delivers each one.
    smtp.state.refusing = false;
    await t.db
      .update(notificationJobs)
      .set({ nextAttemptAt: sql`now()` })
      .where(inArray(notificationJobs.event, events));
    await workers.drain(t);
    const sent = await jobs();
    expect(sent.map((j) => j.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
    expect(sent.every((j) => j.attempts === 2)).toBe(true);

    const tokenIn = (to: string, pattern: RegExp) => {
      const mail = smtp.received.find((m) => m.to.includes(to) && pattern.test(m.text));
      if (!mail) throw new Error(`no email to ${to} matching ${pattern}`);
      return pattern.exec(mail.text)![1]!;
    };
    const verify = tokenIn(account.email, /verify-email\?token=([\w-]{43})/);
    const reset = tokenIn(account.email, /reset-password\?token=([\w-]{43})/);
    const invitation = tokenIn(invitee, /auth\?invitation=([\w-]{43})/);
    const portal = tokenIn(recipientEmail, /\/my\/open#token=([\w-]{43})/);

    // No row of the outbox holds a link that works, sent or not.
    const stored = JSON.stringify(await t.db.select().from(notificationJobs));
    for (const token of [verify, reset, invitation, portal]) expect(stored).not.toContain(token);

    // Each link works.
    expect((await new Client(t).post('/api/verify-email', { token: verify })).statusCode).toBe(200);
    expect(
      (await new Client(t).post('/api/reset-password', { token: reset, password: 'chosen-by-owner' })).statusCode,
    ).toBe(200);
    expect((await new Client(t).get(`/api/invitations/verify/${invitation}`)).statusCode).toBe(200);
    expect((await new Client(t).post('/api/portal/session', { token: portal })).statusCode).toBe(200);
    expect(org.id).toBeTruthy();
  });

  it('a verification link queued for an address proven meanwhile is skipped, not sent', async () => {
    smtp.state.refusing = false;
    const c = new Client(t);
    const account = await c.register();
    // The address is proven another way before the worker runs (an invitation followed, say).
    await t.db.execute(sql`update users set email_verified_at = now() where id = ${account.user.id}`);
    await workers.drain(t);
    const [job] = await t.db
      .select()
      .from(notificationJobs)
      .where(
        sql`${notificationJobs.event} = ${PLATFORM_MESSAGE_EVENTS.verifyEmail} and ${notificationJobs.destination} = ${account.email}`,
      );
    expect(job).toMatchObject({ status: 'skipped' });
    expect(smtp.received.some((m) => m.to.includes(account.email))).toBe(false);
  });
});
