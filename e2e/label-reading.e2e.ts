import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

const TRACKING = '1Z999AA10123456784';

/** A UPS-style label photo (rendered by the same browser, slightly rotated on a desk), as a JPEG file. */
async function labelPhoto(page: Page, name: string, unit: string): Promise<string> {
  await page.setViewportSize({ width: 900, height: 1100 });
  await page.setContent(`<body style="margin:0;background:#8a7f72;display:flex;align-items:center;justify-content:center;height:1100px">
    <div style="width:560px;padding:26px;background:#fbfaf6;font-family:'Liberation Sans';transform:rotate(3deg)">
      <div style="font-size:13px">ACME OUTFITTERS<br>55 INDUSTRIAL PKWY<br>RENO NV 89502</div><hr>
      <div style="font-size:13px">SHIP TO:</div>
      <div style="font-size:22px;font-weight:700">${name}<br>100 HARBOR WAY APT ${unit}<br>BOSTON MA 02110</div><hr>
      <div style="font-size:30px;font-weight:900">UPS GROUND</div>
      <div style="font-size:13px">TRACKING #: <b style="font-size:17px">1Z 999 AA1 0123 4567 84</b></div>
    </div></body>`);
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'label-')), 'label.jpg');
  await page.screenshot({ path: file, type: 'jpeg', quality: 85 });
  return file;
}

/**
 * Issue 28: a package logged from a label photo alone (a file chosen in place of the camera):
 * the label is read on the device, the tracking number and the recipient are filled in (the
 * dialog says "matched from label, N%"), and Log Mail saves it. No request carries the photo or
 * its text before Save.
 */
describe('reading the label in Log Mail', () => {
  it('fills in the tracking number and the recipient from a photo, and sends nothing before Save', async () => {
    const { context, page } = await stack.newPage({ width: 1280, height: 900 });
    await stack.signInAsDemo(page);
    const organizationId = await page.evaluate(() => localStorage.getItem('selectedOrganizationId'));
    // Through the API, as the Recipients screen adds one (the server's caches see it).
    const recipient = await page.evaluate(async (org) => {
      const res = await fetch('/api/recipients', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-organization-id': org ?? '' },
        body: JSON.stringify({ firstName: 'Odalys', lastName: 'Whitcombe', unit: '4B' }),
      });
      return (await res.json()) as { id: string };
    }, organizationId);
    const photoPage = await context.newPage();
    const photo = await labelPhoto(photoPage, 'ODALYS WHITCOMBE', '4B');
    await photoPage.close();

    const sent: Request[] = [];
    page.on('request', (request) => sent.push(request));

    await page.getByRole('link', { name: 'Mail Intake' }).first().click();
    await expect.poll(() => page.getByRole('heading', { name: 'Mail Intake' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    await page.getByLabel('Choose a photo').setInputFiles(photo);

    const reader = page.getByTestId('label-reader');
    // The first label starts the reader (its 14 MB of files, from this server); later ones take about a second.
    const status = reader.getByRole('status');
    await expect
      .poll(async () => /^(?!Loading|Reading)\S/.test(await status.innerText()), { timeout: 90_000, interval: 250 })
      .toBe(true);
    await stack.screenshot(page, 'label-reading-filled');
    expect(await reader.innerText()).toContain('Recipient Odalys Whitcombe (4B) matched from label');
    expect(await page.getByLabel('Tracking Number').inputValue()).toBe(TRACKING);
    expect(await page.getByRole('combobox', { name: 'Recipient' }).inputValue()).toContain('Odalys Whitcombe');

    // Privacy: before Save, no request carried the photo (or anything large), and the reader's
    // files came from our own origin.
    const origin = new URL(stack.url).origin;
    for (const request of sent) {
      expect(new URL(request.url()).origin === origin || request.url().startsWith('data:')).toBe(true);
      const body = request.postData() ?? '';
      expect(body).not.toContain('data:image');
      expect(body.length).toBeLessThan(10_000);
    }
    expect(sent.some((r) => r.url().includes('/assets/ocr-') && r.url().endsWith('eng.traineddata.gz'))).toBe(true);

    await page.getByRole('button', { name: 'Log Mail' }).click();
    await expect.poll(() => page.getByText('Logged for Odalys Whitcombe').isVisible(), { timeout: 15_000 }).toBe(true);
    const [item] = await stack.sql(
      `select recipient_id, tracking_number, courier_company from mail_items
       where organization_id = $1 and tracking_number = $2`,
      [organizationId, TRACKING],
    );
    expect(item).toMatchObject({ recipient_id: recipient.id, tracking_number: TRACKING });

    // Bad input: a photo with no text says so, and fills in nothing.
    const blankPage = await context.newPage();
    await blankPage.setContent('<body style="margin:0;height:800px;background:#9a9488"></body>');
    const blank = path.join(path.dirname(photo), 'blank.jpg');
    await blankPage.screenshot({ path: blank, type: 'jpeg' });
    await blankPage.close();
    await page.getByLabel('Choose a photo').setInputFiles(blank);
    await expect
      .poll(() => status.innerText(), { timeout: 30_000, interval: 250 })
      .toContain('No readable label text on this photo');
    expect(await page.getByLabel('Tracking Number').inputValue()).toBe('');
    expect(await page.getByRole('combobox', { name: 'Recipient' }).inputValue()).toBe('');
    await context.close();
  }, 150_000);
});
