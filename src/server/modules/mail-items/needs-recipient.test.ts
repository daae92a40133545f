import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { MailItem, MailItemHistoryEntry, NeedsRecipientItem } from '../../../contract';
import { mailroomLocations, mailrooms, notificationJobs } from '../../db/schema';
import { Client, joinAs } from '../../test/harness';
import { mailTestApp } from '../../test/smtp';
import { scanReminders } from '../notifications/reminders';
import { signaturePng } from '../../test/hand-over';

/** Items logged without a recipient, and their resolution (decision 041). */

const { t, smtp, drain } = await mailTestApp();

/** An organization with an admin, a member, a recipient with an inbox and a shelf. */
async function desk() {
  const admin = new Client(t);
  await admin.register();
  const org = await admin.createOrganization('Harbor View');
  const { client: member } = await joinAs(t, org.id);
  const email = `amara.${crypto.randomUUID()}@example.com`;
  const recipient = (
    await admin.post('/api/recipients', { firstName: 'Amara', lastName: 'Okafor', email, unit: '101' })
  ).json<{ id: string }>();
  const [room] = await t.db.insert(mailrooms).values({ organizationId: org.id, name: 'Lobby' }).returning();
  const [shelf] = await t.db
    .insert(mailroomLocations)
    .values({ organizationId: org.id, mailroomId: room!.id, name: 'Shelf A', type: 'shelf' })
    .returning();
  return { admin, member, org, recipient, email, shelf: shelf! };
}

const photo = async () =>
  'data:image/png;base64,' +
  (
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#aa7733' } })
      .png()
      .toBuffer()
  ).toString('base64');

const messagesOf = (mailItemId: string) =>
  t.db
    .select({ channel: notificationJobs.channel, event: notificationJobs.event, status: notificationJobs.status })
    .from(notificationJobs)
    .where(eq(notificationJobs.mailItemId, mailItemId));

describe('POST /api/mail-items/needs-recipient', () => {
  it('logs an item with its photo, tracking number, courier and shelf, without a recipient, for members too', async () => {
    const { member, shelf } = await desk();
    const res = await member.post('/api/mail-items/needs-recipient', {
      type: 'package',
      trackingNumber: '1Z999AA10123456784',
      courierCompany: 'UPS',
      locationId: shelf.id,
      photoData: await photo(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json<MailItem>();
    expect(item).toMatchObject({
      status: 'needs_recipient',
      recipientId: null,
      recipient: null,
      trackingNumber: '1Z999AA10123456784',
      courierCompany: 'UPS',
      location: { id: shelf.id, name: 'Shelf A', mailroomName: 'Lobby' },
      isOverdue: false,
    });
    expect(item.thumbnailUrl).toBe(`/api/photos/${item.photoUrl!.split('/').pop()}/thumbnail`);
    const history = (await member.get(`/api/mail-items/${item.id}/history`)).json<MailItemHistoryEntry[]>();
    expect(history).toMatchObject([
      { action: 'created', newStatus: 'needs_recipient', notes: 'Logged without a recipient' },
    ]);
    // Nobody to tell yet: its one event is for the staff's channels (a Teams card, decision 065),
    // and with none of them configured it sends nothing; webhooks hear of it when it enters the flow.
    await drain();
    expect(await messagesOf(item.id)).toEqual([
      { channel: 'event', event: 'mail_item.needs_recipient', status: 'done' },
    ]);
  });

  it('refuses a recipient, an unknown type and a missing required photo with clear 400s', async () => {
    const { admin, org, recipient } = await desk();
    const named = await admin.post('/api/mail-items/needs-recipient', { type: 'package', recipientId: recipient.id });
    expect(named.statusCode).toBe(400);
    const unknown = await admin.post('/api/mail-items/needs-recipient', { type: 'crate' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: 'Unknown package type: crate', code: 'unknown_value' });
    expect((await admin.put(`/api/organization-settings/${org.id}`, { requirePhotoUpload: true })).statusCode).toBe(
      200,
    );
    const noPhoto = await admin.post('/api/mail-items/needs-recipient', { type: 'package' });
    expect(noPhoto.statusCode).toBe(400);
    expect(noPhoto.json()).toMatchObject({ code: 'photo_required' });
    expect((await admin.get('/api/mail-items/needs-recipient/count')).json()).toEqual({ count: 0 });
  });
});

describe('GET /api/mail-items/needs-recipient', () => {
  it('lists them newest first with the thumbnail URL, who logged them and the count, never another organization’s', async () => {
    const { admin, member, shelf } = await desk();
    const first = (
      await member.post('/api/mail-items/needs-recipient', {
        type: 'package',
        trackingNumber: 'TBA123456789000',
        locationId: shelf.id,
        photoData: await photo(),
      })
    ).json<MailItem>();
    const second = (await admin.post('/api/mail-items/needs-recipient', { type: 'letter' })).json<MailItem>();
    const other = await desk();
    await other.admin.post('/api/mail-items/needs-recipient', { type: 'letter' });

    const res = await member.get('/api/mail-items/needs-recipient');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    const rows = res.json<NeedsRecipientItem[]>();
    expect(rows.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(rows[1]).toMatchObject({
      trackingNumber: 'TBA123456789000',
      thumbnailUrl: first.thumbnailUrl,
      photoUrl: first.photoUrl,
      location: { name: 'Shelf A', mailroomName: 'Lobby' },
      loggedBy: { id: first.createdBy, email: expect.stringContaining('@') },
    });
    expect(JSON.stringify(rows)).not.toContain('base64');
    expect((await member.get('/api/mail-items/needs-recipient/count')).json()).toEqual({ count: 2 });
    expect((await member.get('/api/mail-items/needs-recipient?offset=-1')).statusCode).toBe(400);
  });

  it('keeps them out of Pending Pickups, the overdue counters, the recipient’s items and reminders', async () => {
    const { admin } = await desk();
    const item = (await admin.post('/api/mail-items/needs-recipient', { type: 'package' })).json<MailItem>();
    // Logged five days ago: an item with a recipient would be overdue and reminded by now.
    await t.db.execute(sql`update mail_items set arrived_at = now() - interval '5 days' where id = ${item.id}`);
    expect((await admin.get('/api/mail-items/pending-summary')).json()).toEqual({
      totalPending: 0,
      overdue: 0,
      notified: 0,
    });
    const pending = await admin.get('/api/mail-items?status=pending,notified');
    expect(pending.headers['x-total-count']).toBe('0');
    expect((await admin.get(`/api/mail-items/${item.id}`)).json()).toMatchObject({ isOverdue: false });
    await scanReminders(t.db);
    expect((await messagesOf(item.id)).filter((m) => m.event === 'mail_item.reminder')).toEqual([]);
    // History shows it (and filters by its status), and its CSV, with an empty recipient.
    const history = await admin.get('/api/history?status=needs_recipient&range=0');
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json<{ id: string }[]>().map((r) => r.id)).toEqual([item.id]);
    const csv = await admin.get('/api/history/export');
    expect(csv.statusCode, csv.body).toBe(200);
    const line = csv.body.split('\n').find((l) => l.includes('needs_recipient'));
    expect(line, csv.body).toBeDefined();
  });
});

describe('POST /api/mail-items/:id/resolve', () => {
  it('gives the item its recipient, makes it pending, writes the timeline and emails the recipient', async () => {
    const { member, recipient, email } = await desk();
    const item = (
      await member.post('/api/mail-items/needs-recipient', {
        type: 'package',
        trackingNumber: '9400111899223197428490',
      })
    ).json<MailItem>();
    const res = await member.post(`/api/mail-items/${item.id}/resolve`, { recipientId: recipient.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MailItem>()).toMatchObject({
      status: 'pending',
      recipientId: recipient.id,
      recipient: { firstName: 'Amara', lastName: 'Okafor' },
    });
    expect((await member.get('/api/mail-items/needs-recipient/count')).json()).toEqual({ count: 0 });

    await drain();
    const mail = await smtp.waitFor(email);
    expect(mail.text).toContain('9400111899223197428490');
    // The arrival message went out, so the item is notified, as after an intake.
    const after = (await member.get(`/api/mail-items/${item.id}`)).json<MailItem>();
    expect(after.status).toBe('notified');
    const history = (await member.get(`/api/mail-items/${item.id}/history`)).json<MailItemHistoryEntry[]>();
    expect(history.map((h) => [h.action, h.previousStatus, h.newStatus])).toEqual([
      ['created', null, 'needs_recipient'],
      ['recipient_assigned', 'needs_recipient', 'pending'],
      ['notified', 'pending', 'notified'],
    ]);
    expect(history[1]!.notes).toBe('Recipient: Amara Okafor (chosen by the clerk)');
  });

  it('answers 409 for an item that has its recipient, 400 for a bad body, 404 for unknown ids', async () => {
    const { admin, recipient } = await desk();
    const normal = (
      await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id })
    ).json<MailItem>();
    const again = await admin.post(`/api/mail-items/${normal.id}/resolve`, { recipientId: recipient.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'recipient_already_set' });

    const item = (await admin.post('/api/mail-items/needs-recipient', { type: 'package' })).json<MailItem>();
    const empty = await admin.post(`/api/mail-items/${item.id}/resolve`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: expect.stringContaining('Choose a recipient') });
    const unknownRecipient = await admin.post(`/api/mail-items/${item.id}/resolve`, {
      recipientId: crypto.randomUUID(),
    });
    expect(unknownRecipient.statusCode).toBe(404);
    expect(unknownRecipient.json()).toMatchObject({ message: 'Recipient not found' });
    const unknownItem = await admin.post(`/api/mail-items/${crypto.randomUUID()}/resolve`, {
      recipientId: recipient.id,
    });
    expect(unknownItem.statusCode).toBe(404);
    expect((await admin.get(`/api/mail-items/${item.id}`)).json()).toMatchObject({ status: 'needs_recipient' });
  });

  it('answers 404 for another organization’s item or recipient and changes nothing', async () => {
    const a = await desk();
    const b = await desk();
    const item = (await a.admin.post('/api/mail-items/needs-recipient', { type: 'package' })).json<MailItem>();
    const byOther = await b.admin.post(`/api/mail-items/${item.id}/resolve`, { recipientId: b.recipient.id });
    expect(byOther.statusCode).toBe(404);
    const theirRecipient = await a.admin.post(`/api/mail-items/${item.id}/resolve`, { recipientId: b.recipient.id });
    expect(theirRecipient.statusCode).toBe(404);
    expect((await a.admin.get(`/api/mail-items/${item.id}`)).json()).toMatchObject({
      status: 'needs_recipient',
      recipientId: null,
    });
  });

  it('keeps the item out of other status changes and hand-overs until it is resolved', async () => {
    const { admin, recipient } = await desk();
    const item = (await admin.post('/api/mail-items/needs-recipient', { type: 'package' })).json<MailItem>();
    const status = await admin.put(`/api/mail-items/${item.id}`, { status: 'returned' });
    expect(status.statusCode).toBe(409);
    expect(status.json()).toMatchObject({ code: 'needs_recipient' });
    const viaEdit = await admin.put(`/api/mail-items/${item.id}`, { recipientId: recipient.id });
    expect(viaEdit.statusCode).toBe(409);
    const handover = await admin.post('/api/handovers', {
      itemIds: [item.id],
      collectorName: 'Someone',
      identifiedBy: 'known_to_staff',
      proxyReason: 'Walk-in, asked at the desk',
      signatureData: await signaturePng(),
    });
    expect(handover.statusCode).toBe(409);
    // Other fields may still be corrected.
    const notes = await admin.put(`/api/mail-items/${item.id}`, { notes: 'Torn label, unit 4?' });
    expect(notes.statusCode, notes.body).toBe(200);
    expect(notes.json()).toMatchObject({ status: 'needs_recipient', notes: 'Torn label, unit 4?' });
  });
});
