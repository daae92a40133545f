import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailItems, notificationJobs, organizations, recipients } from './db/schema';
import { Client, createSecondInstance, type TestApp } from './test/harness';
import { testWorkers } from './test/notification-workers';
import { createTestAppWithSmtp, type TestSmtp } from './test/smtp';

/**
 * Three instances on one database, each running its notification worker with the scheduled
 * scans (reminders, trial endings), as `npm start` runs them on every instance behind nginx: what
 * is scheduled happens once, not once per instance (decision 039). Nothing elects a leader: the
 * scans queue with dedupe keys a unique index holds, and jobs are claimed with skip locked.
 */
const DAY = 86_400_000;
const TRIAL_3_DAYS = 'Your Pigeonhole trial ends in 3 days';

let smtp: TestSmtp;
let instances: TestApp[];
beforeAll(async () => {
  const made = await createTestAppWithSmtp();
  smtp = made.smtp;
  instances = [made.t, await createSecondInstance(made.t), await createSecondInstance(made.t)];
});
const workers = testWorkers();

let seq = 0;
/** An organization whose trial ends in 2.5 days, and an item its recipient has waited 4 days for. */
async function waitingItemInEndingTrial() {
  const [t] = instances;
  const admin = new Client(t!);
  const account = await admin.register();
  const org = await admin.createOrganization(`Single Run ${++seq}`);
  const email = `waiting${seq}_${Date.now()}@example.com`;
  const [recipient] = await t!.db
    .insert(recipients)
    .values({ organizationId: org.id, firstName: 'Wen', lastName: 'Li', email })
    .returning();
  const res = await admin.post('/api/mail-items', { type: 'package', recipientId: recipient!.id });
  expect(res.statusCode).toBe(201);
  const item = res.json<{ id: string }>();
  await t!.db
    .update(mailItems)
    .set({ arrivedAt: new Date(Date.now() - 4 * DAY) })
    .where(eq(mailItems.id, item.id));
  await t!.db
    .update(organizations)
    .set({ trialEndDate: new Date(Date.now() + 2.5 * DAY) })
    .where(eq(organizations.id, org.id));
  return { org, adminEmail: account.email, recipientEmail: email, item };
}

const jobsOf = (organizationId: string, event: string) =>
  instances[0]!.db
    .select()
    .from(notificationJobs)
    .where(and(eq(notificationJobs.organizationId, organizationId), eq(notificationJobs.event, event)));

describe('scheduled work with three instances on one database', () => {
  it('each running its worker and scans: one reminder, one trial email per admin, one arrival email', async () => {
    const { org, adminEmail, recipientEmail } = await waitingItemInEndingTrial();
    // Every instance scans every 20 ms, so the three scans overlap again and again.
    const running = instances.map((t) => {
      const w = workers.create(t, { reminderEveryMs: 20, recoverEveryMs: 20 });
      w.start();
      return w;
    });
    await new Promise((r) => setTimeout(r, 1500));
    await running[0]!.idle();
    await Promise.all(running.map((w) => w.stop()));

    const to = (address: string) => smtp.received.filter((m) => m.to.includes(address));
    expect(to(recipientEmail).filter((m) => m.subject.startsWith('Reminder'))).toHaveLength(1);
    expect(to(recipientEmail).filter((m) => !m.subject.startsWith('Reminder'))).toHaveLength(1);
    expect(to(adminEmail).filter((m) => m.subject === TRIAL_3_DAYS)).toHaveLength(1);
    const reminders = await jobsOf(org.id, 'mail_item.reminder');
    expect(reminders.filter((j) => j.channel === 'event')).toHaveLength(1);
    const trial = await jobsOf(org.id, 'billing.trial_ending');
    expect(trial.map((j) => [j.status, j.attempts])).toEqual([['sent', 1]]);
  });

  it('the scans started on all three at the same instant queue one job per day between them', async () => {
    const { org } = await waitingItemInEndingTrial();
    for (let day = 0; day < 5; day += 1) {
      const at = new Date(Date.now() + day * DAY);
      await Promise.all(instances.map((t) => t.app.notifications.scanReminders(at)));
      const queued = (await jobsOf(org.id, 'mail_item.reminder')).filter((j) => j.channel === 'event');
      expect(queued).toHaveLength(day + 1);
    }
    // The trial: "3 days" once, and two days later "tomorrow" once, however many scan.
    for (const at of [new Date(), new Date(Date.now() + 2 * DAY)]) {
      await Promise.all(instances.flatMap((t) => [1, 2].map(() => t.app.notifications.scanTrialEndings(at))));
    }
    expect(await jobsOf(org.id, 'billing.trial_ending')).toHaveLength(2);
  });
});
