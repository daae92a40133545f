import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { COLLECTOR_NOT_RECORDED, HISTORY_CSV_COLUMNS } from '../../../contract';
import { and } from 'drizzle-orm';
import { mailItemHistory, mailItems, notificationJobs, organizations } from '../../db/schema';
import { handedOver } from '../../test/hand-over';
import { Client } from '../../test/harness';
import { signedInToRecipientPage } from '../../test/recipient-page';
import { mailTestApp } from '../../test/smtp';

/**
 * Issue 41 item 6 (decision 048): Edit -> Status -> Delivered recorded no collector and no proof,
 * yet the receipt emailed to the recipient said "Collected by: <recipient's name>", a name nobody
 * entered. Every reader now says plainly that the collector was not recorded. Since issue 42
 * (decision 053) no edit marks an item delivered: such items are the ones delivered before, which
 * the test writes as that edit wrote them (the row, its history row and its event).
 */

const { t, smtp, drain } = await mailTestApp();
const unique = () => crypto.randomUUID().slice(0, 8);

type Item = { id: string; status: string; collectorName: string | null; handoverId: string | null; revision: number };

/** A desk (UTC), a recipient with an email, and an item of theirs marked delivered by a status change. */
async function deliveredByStatusChange() {
  const admin = new Client(t);
  await admin.register();
  const org = await admin.createOrganization(`Harbor View ${unique()}`);
  await t.db.update(organizations).set({ timezone: 'UTC' }).where(eq(organizations.id, org.id));
  const email = `amara.${unique()}@example.com`;
  const recipient = (await admin.post('/api/recipients', { firstName: 'Amara', lastName: 'Okafor', email })).json<{
    id: string;
  }>();
  const tracking = `NOCOLL${unique().toUpperCase()}`;
  const created = await admin.post('/api/mail-items', {
    type: 'package',
    recipientId: recipient.id,
    sender: 'Acme',
    trackingNumber: tracking,
  });
  expect(created.statusCode, created.body).toBe(201);
  await drain(); // the arrival email
  const item = created.json<Item>();
  // What the edit dialog's status change wrote before issue 42: no collector, no hand-over.
  await t.db
    .update(mailItems)
    .set({ status: 'delivered', deliveredAt: new Date(), collectorName: null, handoverId: null })
    .where(and(eq(mailItems.organizationId, org.id), eq(mailItems.id, item.id)));
  await t.db.insert(mailItemHistory).values({
    organizationId: org.id,
    mailItemId: item.id,
    action: 'delivered',
    previousStatus: 'notified',
    newStatus: 'delivered',
  });
  await t.db.insert(notificationJobs).values({
    organizationId: org.id,
    channel: 'event',
    event: 'mail_item.delivered',
    mailItemId: item.id,
    recipientId: recipient.id,
    payload: {},
  });
  const res = await admin.get(`/api/mail-items/${item.id}`);
  return { admin, email, recipient, tracking, item, reply: res.json<Item>() };
}

describe('a delivered item without a recorded collector', () => {
  it('is answered by the API with no collector and no hand-over, never a supplied name', async () => {
    const { admin, item, reply, tracking } = await deliveredByStatusChange();
    expect(reply).toMatchObject({ status: 'delivered', collectorName: null, handoverId: null });
    expect((await admin.get(`/api/mail-items/${item.id}`)).json<Item>()).toMatchObject({
      status: 'delivered',
      collectorName: null,
      handoverId: null,
    });
    const history = (await admin.get(`/api/history?range=0&search=${tracking}`)).json<Item[]>();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ status: 'delivered', collectorName: null });
  });

  it('is receipted by email as marked delivered with the collector not recorded, not "Collected by" the recipient', async () => {
    const { email } = await deliveredByStatusChange();
    await drain();
    const receipt = await smtp.waitFor(email, { subject: /delivered|picked up/ });
    expect(receipt.subject).toMatch(/^Your package was marked as delivered at Harbor View/);
    expect(receipt.text).not.toContain('Collected by');
    expect(receipt.text).not.toContain('Amara Okafor');
    expect(receipt.text).not.toMatch(/has been collected/);
    expect(receipt.text).toContain(`Collector: ${COLLECTOR_NOT_RECORDED}`);
    expect(receipt.text).toMatch(/Marked delivered: /);
    expect(receipt.text).toContain('Who collected it was not recorded: if you did not collect it, please contact');
    // (`text` is the whole message decoded: its plain and HTML parts)
    expect(receipt.text).toMatch(/<td[^>]*>Collector<\/td><td[^>]*>Collector not recorded<\/td>/);
  });

  it('keeps the recorded collector on the receipt of a hand-over', async () => {
    const admin = new Client(t);
    await admin.register();
    await admin.createOrganization(`Harbor View ${unique()}`);
    const email = `amara.${unique()}@example.com`;
    const recipient = (await admin.post('/api/recipients', { firstName: 'Amara', lastName: 'Okafor', email })).json<{
      id: string;
    }>();
    const item = (await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id })).json<Item>();
    await drain();
    await handedOver(admin, item.id, { collectorName: 'Amara Okafor' });
    await drain();
    const receipt = await smtp.waitFor(email, { subject: /picked up/ });
    expect(receipt.text).toContain('Collected by: Amara Okafor');
    expect(receipt.text).not.toContain(COLLECTOR_NOT_RECORDED);
  });

  it('says "Collector not recorded" in the Collected by column of the export', async () => {
    const { admin, tracking } = await deliveredByStatusChange();
    const res = await admin.get(`/api/history/export?range=0&search=${tracking}`);
    expect(res.statusCode, res.body).toBe(200);
    const [header, row] = res.body.split('\r\n');
    expect(header).toBe(HISTORY_CSV_COLUMNS.join(','));
    const cells = row!.split(',');
    expect(cells[HISTORY_CSV_COLUMNS.indexOf('Status')]).toBe('delivered');
    expect(cells[HISTORY_CSV_COLUMNS.indexOf('Collected by')]).toBe(COLLECTOR_NOT_RECORDED);
    expect(cells[HISTORY_CSV_COLUMNS.indexOf('Identified by')]).toBe('');
    expect(row).not.toContain('Amara Okafor,delivered');
  });

  it("answers the recipient's page with no collector for it", async () => {
    const { email, item } = await deliveredByStatusChange();
    // The recipient signs in to their page through an emailed link (decision 032).
    const page = await signedInToRecipientPage(t, smtp, email, { remoteAddress: '198.51.100.77', send: drain });
    const past = await page('GET', '/api/portal/items?state=past');
    expect(past.statusCode, past.body).toBe(200);
    const found = past.json<{ items: Array<{ id: string; collectorName: string | null }> }>().items;
    expect(found.find((i) => i.id === item.id)).toMatchObject({ collectorName: null });
  });
});
