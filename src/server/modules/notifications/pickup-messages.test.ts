import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { describe, expect, it } from 'vitest';
import { formatPickupCode } from '../../../contract';
import { recipients } from '../../db/schema';
import { Client } from '../../test/harness';
import { mailTestApp } from '../../test/smtp';
import { renderSms, type MessageContext } from './messages';

/** What the recipient is sent about their pickup code and their hand-over's proof (decision 031). */

const { t, smtp, drain } = await mailTestApp();

/** The text of the QR attached under the pickup code's Content-ID, read by ZXing as a scanner would. */
async function qrOf(raw: string): Promise<string | undefined> {
  const part = raw.split(/\r?\n--/).find((p) => /Content-ID: <pickup-code@pigeonhole>/i.test(p));
  const base64 = part?.split(/\r?\n\r?\n/)[1]?.replace(/\s/g, '');
  if (!base64) return undefined;
  prepareZXingModule({
    overrides: {
      wasmBinary: fs.readFileSync('node_modules/zxing-wasm/dist/reader/zxing_reader.wasm').buffer as ArrayBuffer,
    },
  });
  const [read] = await readBarcodes(new Blob([Buffer.from(base64, 'base64')]), { formats: ['QRCode'] });
  return read?.text;
}

async function desk() {
  const admin = new Client(t);
  await admin.register();
  await admin.createOrganization('Harbor View');
  const email = `amara.${crypto.randomUUID()}@example.com`;
  const res = await admin.post('/api/recipients', { firstName: 'Amara', lastName: 'Okafor', email });
  const recipient = res.json<{ id: string }>();
  const [row] = await t.db.select().from(recipients).where(eq(recipients.id, recipient.id));
  return { admin, recipient, email, code: formatPickupCode(row!.pickupCode) };
}

const signature = async () =>
  `data:image/png;base64,${(
    await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120"><path d="M20 80 C 80 10, 140 150, 280 60" stroke="#111" stroke-width="3" fill="none"/></svg>',
      ),
    )
      .png()
      .toBuffer()
  ).toString('base64')}`;

describe('the arrival email', () => {
  it('carries the pickup code in words and as a QR image that reads back as the code', async () => {
    const { admin, email, recipient, code } = await desk();
    expect((await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id })).statusCode).toBe(201);
    await drain();
    const mail = await smtp.waitFor(email);
    expect(mail.text).toContain(`Your pickup code: ${code}`);
    // First, before the greeting and the item's details (decision 063).
    expect(mail.text.indexOf(`Your pickup code: ${code}`)).toBeLessThan(mail.text.indexOf('Hello Amara'));
    expect(mail.text.indexOf(code)).toBeLessThan(mail.text.indexOf('Type: Package'));
    expect(mail.raw).toMatch(/Content-ID: <pickup-code@pigeonhole>/i);
    expect(mail.text).toContain('cid:pickup-code@pigeonhole');
    expect(await qrOf(mail.raw)).toBe(code);
  });
});

describe('the receipt', () => {
  it('says how the collector was identified and carries the signature they drew', async () => {
    const { admin, email, recipient, code } = await desk();
    const item = (await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id })).json<{
      id: string;
    }>();
    await drain();
    const res = await admin.post('/api/handovers', {
      itemIds: [item.id],
      collectorName: 'Amara Okafor',
      identifiedBy: 'pickup_code',
      pickupCode: code,
      signatureData: await signature(),
    });
    expect(res.statusCode, res.body).toBe(201);
    await drain();
    const receipt = await smtp.waitFor(email, { subject: /picked up/ });
    expect(receipt.text).toContain('Collected by: Amara Okafor');
    expect(receipt.text).toContain('Identified by: pickup code');
    expect(receipt.text).toContain('Proof taken: signature');
    expect(receipt.raw).toMatch(/Content-ID: <signature@pigeonhole>/i);
    expect(receipt.text).not.toContain('Your pickup code');
  });
});

describe('the arrival SMS', () => {
  const context = (pickupCode: string | null, org = 'Harbor View Residences'): MessageContext => ({
    organization: { name: org, logoUrl: null, timezone: 'UTC' },
    recipient: { firstName: 'Amara', lastName: 'Okafor', pickupCode },
    item: {
      type: 'package',
      sender: 'A sender with a rather long name indeed',
      courierCompany: null,
      trackingNumber: null,
      location: 'Shelf A, Lobby Mailroom',
      arrivedAt: new Date('2026-11-28T10:00:00Z'),
      deliveredAt: null,
      collectorName: null,
      hasPhoto: false,
      handover: null,
    },
    pickupInstructions: 'Front desk, 8am to 8pm daily, bring an ID please',
    unsubscribeUrl: 'http://pigeonhole.test/u',
  });

  it('keeps the code in one segment while the optional parts give way', () => {
    const body = renderSms('arrival', context('K7M-4PX', 'A very long organization name for a building'));
    expect(body).toMatch(/^A very long organization name for a building: Pickup code K7M-4PX\. /);
    expect(body.length).toBeLessThanOrEqual(160);
    expect(renderSms('reminder', context('K7M-4PX'))).toContain('Pickup code K7M-4PX.');
    expect(renderSms('arrival', context(null))).not.toContain('Code');
  });

  it('receipts a delivery without a recorded collector as such, never naming the recipient (issue 41 item 6)', () => {
    const delivered = (collectorName: string | null): MessageContext => {
      const c = context(null, 'Harbor View');
      return { ...c, item: { ...c.item, sender: null, deliveredAt: new Date('2026-11-28T12:00:00Z'), collectorName } };
    };
    expect(renderSms('receipt', delivered(null))).toBe(
      'Harbor View: your package was marked as delivered on Nov 28, 2026, 12:00 PM. Collector not recorded.',
    );
    expect(renderSms('receipt', delivered('Ben Ito'))).toBe(
      'Harbor View: your package was collected by Ben Ito on Nov 28, 2026, 12:00 PM.',
    );
  });
});
