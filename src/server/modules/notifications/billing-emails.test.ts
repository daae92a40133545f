import net from 'node:net';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { and, eq, TransactionRollbackError } from 'drizzle-orm';
import { integrations, notificationJobs, organizationMembers, organizations } from '../../db/schema';
import { Client, createTestApp, type TestApp } from '../../test/harness';
import { testWorkers } from '../../test/notification-workers';
import { createTestAppWithSmtp, startTestSmtp, type TestSmtp } from '../../test/smtp';
import { queuePaymentFailedEmails } from '../billing/billing-emails';

let smtp: TestSmtp;
let t: TestApp;

beforeAll(async () => {
  ({ t, smtp } = await createTestAppWithSmtp());
});

const workers = testWorkers();
/** Runs a worker (as notifications.test.ts does) until nothing is due, then stops it. */
const drain = (app: TestApp = t) => workers.drain(app);

const DAY = 86_400_000;
const THREE_DAYS = 'Your Pigeonhole trial ends in 3 days';
const TOMORROW = 'Your Pigeonhole trial ends tomorrow';
const PAYMENT_FAILED = 'Your Pigeonhole payment failed';

let seq = 0;
/** An organization with two admins and a member; `trialEndsIn` ms from now (its trial's end). */
async function team(trialEndsIn = 2.5 * DAY) {
  const owner = new Client(t);
  const first = await owner.register({ firstName: 'Dana' });
  const name = `Harbor View ${++seq}`;
  const org = { ...(await owner.createOrganization(name)), name };
  const join = async (role: 'admin' | 'member') => {
    const { email, user } = await new Client(t).register();
    await t.db.insert(organizationMembers).values({ organizationId: org.id, userId: user.id, role });
    return email;
  };
  const admins = [first.email, await join('admin')];
  const member = await join('member');
  await setOrganization(org.id, { trialEndDate: new Date(Date.now() + trialEndsIn) });
  return { owner, org, admins, member };
}

const setOrganization = (id: string, values: Partial<typeof organizations.$inferInsert>) =>
  t.db.update(organizations).set(values).where(eq(organizations.id, id));

const jobsOf = (organizationId: string, event: string) =>
  t.db
    .select()
    .from(notificationJobs)
    .where(and(eq(notificationJobs.organizationId, organizationId), eq(notificationJobs.event, event)));

/** Billing emails to `to` (the verification email every new account gets is not one of them). */
const mails = (to: string, subject?: string) =>
  smtp.received.filter(
    (m) =>
      m.to.includes(to) &&
      (subject === undefined ? !m.subject.startsWith('Verify your Pigeonhole email') : m.subject === subject),
  );

describe('trial-ending emails to admins', () => {
  it('sends one "3 days" email per admin, nothing to members, nothing twice, then one "tomorrow" email', async () => {
    const { org, admins, member } = await team(2.5 * DAY);

    expect(await t.app.notifications.scanTrialEndings()).toBeGreaterThanOrEqual(2);
    const queued = await jobsOf(org.id, 'billing.trial_ending');
    expect(queued.map((j) => j.destination).sort()).toEqual([...admins].sort());
    // Not a recipient's message on any item, not an integration's delivery.
    expect(queued.every((j) => j.channel === 'email' && j.mailItemId === null && j.integrationId === null)).toBe(true);

    await t.app.notifications.scanTrialEndings();
    expect(await jobsOf(org.id, 'billing.trial_ending')).toHaveLength(2);

    await drain();
    for (const admin of admins) {
      expect(mails(admin, THREE_DAYS)).toHaveLength(1);
      const mail = mails(admin, THREE_DAYS)[0]!;
      expect(mail.raw).toContain('From: Pigeonhole <no-reply@pigeonhole.local>');
      expect(mail.raw).toMatch(/Content-Type: text\/html/i);
      expect(mail.text).toContain(`The free trial of ${org.name} ends on`);
      expect(mail.text).toContain('stays readable');
      expect(mail.text).toContain('logging new mail, adding members and adding integrations pause');
      expect(mail.text).toContain('Choose a plan: http://pigeonhole.test/checkout');
    }
    expect(mails(admins[0]!, THREE_DAYS)[0]!.text).toContain('Hello Dana,');
    expect(mails(member)).toHaveLength(0);
    expect((await jobsOf(org.id, 'billing.trial_ending')).map((j) => j.status)).toEqual(['sent', 'sent']);

    // Two days later half a day is left: the "tomorrow" email, once, and no second "3 days".
    const later = new Date(Date.now() + 2 * DAY);
    await t.app.notifications.scanTrialEndings(later);
    await t.app.notifications.scanTrialEndings(later);
    await drain();
    for (const admin of admins) {
      expect(mails(admin, TOMORROW)).toHaveLength(1);
      expect(mails(admin, THREE_DAYS)).toHaveLength(1);
    }
    expect(mails(member)).toHaveLength(0);
    expect(await jobsOf(org.id, 'billing.trial_ending')).toHaveLength(4);
  });

  it('sends only the "tomorrow" email to a trial first seen with less than a day left', async () => {
    const { admins } = await team(0.5 * DAY);
    await t.app.notifications.scanTrialEndings();
    await drain();
    for (const admin of admins) {
      expect(mails(admin, TOMORROW)).toHaveLength(1);
      expect(mails(admin, THREE_DAYS)).toHaveLength(0);
    }
  });

  it('sends nothing for an ended trial, a paid organization or a trial with more than 3 days left', async () => {
    const ended = await team(-3600_000);
    const paid = await team(2 * DAY);
    await setOrganization(paid.org.id, { planType: 'professional', subscriptionStatus: 'active' });
    const early = await team(3.5 * DAY);

    await t.app.notifications.scanTrialEndings();
    await drain();
    for (const { org, admins } of [ended, paid, early]) {
      expect(await jobsOf(org.id, 'billing.trial_ending')).toHaveLength(0);
      for (const admin of admins) expect(mails(admin)).toHaveLength(0);
    }
  });
});

describe('queuePaymentFailedEmails', () => {
  const details = {
    amount: 17500,
    currency: 'usd',
    invoiceUrl: 'https://invoice.stripe.test/in_failed',
    eventId: 'evt_payment_failed_1',
  };

  it('emails each admin once per event, through the platform server, outside the integrations', async () => {
    const { owner, org, admins, member } = await team(5 * DAY);
    // The organization's own email server must not carry Pigeonhole's email to its admins.
    const theirs = await startTestSmtp();
    onTestFinished(() => theirs.close());
    const [integration] = await t.db
      .insert(integrations)
      .values({
        organizationId: org.id,
        name: 'Our SMTP',
        type: 'email',
        config: { emailSettings: { smtpHost: '127.0.0.1', smtpPort: Number(new URL(theirs.url).port), secure: false } },
      })
      .returning();

    expect(await t.db.transaction((tx) => queuePaymentFailedEmails(tx, org.id, details))).toBe(2);
    // The webhook delivered again: nothing more.
    expect(await t.db.transaction((tx) => queuePaymentFailedEmails(tx, org.id, details))).toBe(0);
    await drain();

    for (const admin of admins) {
      expect(mails(admin, PAYMENT_FAILED)).toHaveLength(1);
      const mail = mails(admin, PAYMENT_FAILED)[0]!;
      expect(mail.text).toContain(`We could not collect the payment of $175.00 for ${org.name}'s Pigeonhole plan.`);
      expect(mail.text).toContain('Pay the invoice: https://invoice.stripe.test/in_failed');
      expect(mail.text).toContain('Update your payment method: http://pigeonhole.test/settings-billing');
    }
    expect(mails(member)).toHaveLength(0);
    expect(theirs.received).toHaveLength(0);
    const deliveries = await owner.get(`/api/integrations/${integration!.id}/deliveries`);
    expect(deliveries.statusCode).toBe(200);
    expect(deliveries.json()).toEqual([]);
    const jobs = await jobsOf(org.id, 'billing.payment_failed');
    expect(jobs.map((j) => [j.status, j.mailItemId, j.integrationId])).toEqual([
      ['sent', null, null],
      ['sent', null, null],
    ]);

    // Another failed event (Stripe's next retry) is another email.
    await t.db.transaction((tx) =>
      queuePaymentFailedEmails(tx, org.id, { ...details, eventId: 'evt_payment_failed_2' }),
    );
    await drain();
    for (const admin of admins) expect(mails(admin, PAYMENT_FAILED)).toHaveLength(2);
  });

  it('is retried like any message while the platform SMTP server is down', async () => {
    // A port nobody listens on any more.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const owner = new Client(down);
    await owner.register();
    const org = await owner.createOrganization('Down Town');

    await down.db.transaction((tx) => queuePaymentFailedEmails(tx, org.id, details));
    await drain(down);
    const [job] = await down.db.select().from(notificationJobs).where(eq(notificationJobs.organizationId, org.id));
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(job!.lastError).toMatch(/^SMTP: /);
    expect(job!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("queues nothing when the caller's transaction rolls back", async () => {
    const { org } = await team(5 * DAY);
    await expect(
      t.db.transaction(async (tx) => {
        await queuePaymentFailedEmails(tx, org.id, { ...details, eventId: 'evt_rolled_back' });
        tx.rollback();
      }),
    ).rejects.toBeInstanceOf(TransactionRollbackError);
    expect(await jobsOf(org.id, 'billing.payment_failed')).toHaveLength(0);
  });

  it('never fails on odd details: what cannot be shown is left out of the email', async () => {
    const { org, admins } = await team(5 * DAY);
    expect(await queuePaymentFailedEmails(t.db, 'not-an-id', details)).toBe(0);
    const odd = {
      amount: Number.NaN,
      currency: 'dollars',
      invoiceUrl: 'javascript:alert(1)',
      eventId: `evt_${'x'.repeat(400)}`,
    };
    expect(await queuePaymentFailedEmails(t.db, org.id, odd)).toBe(2);
    expect(await queuePaymentFailedEmails(t.db, org.id, odd)).toBe(0);
    await drain();
    for (const admin of admins) {
      const [mail] = mails(admin, PAYMENT_FAILED);
      expect(mail!.text).toContain(`We could not collect the payment for ${org.name}'s Pigeonhole plan.`);
      expect(mail!.text).not.toContain('javascript:');
    }
  });
});
