import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { renderSVG } from 'uqr';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserContext, type Page } from 'playwright-core';
import { api } from './support/page-api';
import { launchWithCamera, startStack, type Stack } from './support/stack';

/** Shelf labels and pickup slips printed from the browser, and the desk's camera reading a pickup code (decision 034). */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

/** What a QR in a picture says, read by ZXing as a phone or scanner would. */
async function readQr(png: Buffer): Promise<string | undefined> {
  prepareZXingModule({
    overrides: {
      wasmBinary: fs.readFileSync('node_modules/zxing-wasm/dist/reader/zxing_reader.wasm').buffer as ArrayBuffer,
    },
  });
  const [read] = await readBarcodes(new Blob([new Uint8Array(png)]), { formats: ['QRCode'] });
  return read?.text;
}

/** The size of a PDF's first page in millimetres, from its MediaBox (points). */
function pdfPageMm(pdf: Buffer): { width: number; height: number } {
  const box = /\/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]/.exec(pdf.toString('latin1'));
  if (!box) throw new Error('no MediaBox in the PDF');
  const mm = (pt: number) => (pt * 25.4) / 72;
  return { width: mm(Number(box[3]) - Number(box[1])), height: mm(Number(box[4]) - Number(box[2])) };
}

/** The print view a button opened in a new tab. */
async function opened(context: BrowserContext, click: () => Promise<void>): Promise<Page> {
  const [view] = await Promise.all([context.waitForEvent('page'), click()]);
  view.setDefaultTimeout(10_000);
  await view.waitForLoadState();
  return view;
}

async function chooseFormat(view: Page, label: string) {
  await view.getByRole('radio', { name: label }).check({ force: true });
}

async function expectPdfPage(view: Page, widthMm: number, heightMm: number) {
  const size = pdfPageMm(await view.pdf({ preferCSSPageSize: true, printBackground: true }));
  expect(Math.abs(size.width - widthMm), `width ${size.width} mm`).toBeLessThan(1);
  expect(Math.abs(size.height - heightMm), `height ${size.height} mm`).toBeLessThan(1);
}

describe('shelf labels', () => {
  it('prints a location’s label at 62 mm, A4 and Letter; its QR holds the location and chooses it in Log Mail', async () => {
    const { context, page } = await stack.newPage({ width: 1280, height: 800 }, { colorScheme: 'light' });
    await stack.signInAsDemo(page);
    const mailroom = await api<{ id: string }>(page, 'POST', '/api/mailrooms', { name: 'Print Room' });
    const shelf = await api<{ id: string }>(page, 'POST', '/api/mailroom-locations', {
      name: 'Shelf P-1',
      type: 'shelf',
      mailroomId: mailroom.id,
    });
    await api(page, 'POST', '/api/mailroom-locations', { name: 'Bin P-2', type: 'bin', mailroomId: mailroom.id });

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Mailrooms' }).click();
    const room = page.getByRole('region', { name: 'Print Room' });
    await expect
      .poll(() => room.getByRole('button', { name: 'Print shelf label for Shelf P-1' }).isVisible())
      .toBe(true);
    await stack.screenshot(page, 'printing-settings-mailrooms-desktop-light');

    const view = await opened(context, () =>
      room.getByRole('button', { name: 'Print shelf label for Shelf P-1' }).click(),
    );
    expect(new URL(view.url()).pathname).toBe('/print/labels');
    const label = view.getByRole('article', { name: 'Shelf label Shelf P-1' });
    await expect.poll(() => label.isVisible()).toBe(true);
    // no app shell around it, and a toolbar that does not print
    expect(await view.getByRole('navigation').count()).toBe(0);
    expect(await view.getByRole('toolbar', { name: 'Print' }).isVisible()).toBe(true);

    for (const [format, width, height, shot] of [
      ['62 mm roll', 62, 40, 'label62'],
      ['A4', 210, 297, 'a4'],
      ['US Letter', 215.9, 279.4, 'letter'],
    ] as const) {
      await chooseFormat(view, format);
      await expectPdfPage(view, width, height);
      await stack.screenshot(view, `printing-labels-${shot}-desktop-light`);
    }
    // Printing hides the toolbar.
    await view.emulateMedia({ media: 'print' });
    expect(await view.getByRole('toolbar', { name: 'Print' }).isVisible()).toBe(false);
    await view.emulateMedia({ media: 'screen' });

    // The QR, as a phone's camera sees it on the printed label, names this location.
    const qr = label.getByRole('img', { name: 'QR code of the storage location Shelf P-1' });
    const picture = await qr.screenshot();
    expect(await readQr(picture)).toBe(`pigeonhole:location:${shelf.id}`);

    // The whole mailroom: one label per active location.
    const all = await opened(context, () =>
      room.getByRole('button', { name: 'Print shelf labels for Print Room' }).click(),
    );
    await expect.poll(() => all.getByRole('article').count()).toBe(2);
    await all.close();

    // Log Mail's barcode scan reads the label and chooses the shelf instead of a tracking number.
    await page.goto('/mail-intake');
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    await page.getByRole('tab', { name: 'Scan Barcode' }).click();
    await page.getByLabel('Choose a picture of the label').setInputFiles({
      name: 'shelf.png',
      mimeType: 'image/png',
      buffer: await sharp(picture)
        .extend({ top: 40, bottom: 40, left: 40, right: 40, background: '#fff' })
        .png()
        .toBuffer(),
    });
    await expect
      .poll(() => page.getByText('Storage Location: Shelf P-1 · Print Room').isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await page.getByLabel('Storage Location').innerText()).toContain('Shelf P-1');
    expect(await page.getByRole('textbox', { name: 'Tracking Number' }).inputValue()).toBe('');

    // A USB scanner reading the label types its text and Enter into Tracking Number: the same choice.
    const tracking = page.getByRole('textbox', { name: 'Tracking Number' });
    await page.getByRole('tab', { name: 'Upload File' }).click();
    await tracking.fill(`pigeonhole:location:${shelf.id}`);
    await tracking.press('Enter');
    await expect.poll(() => tracking.inputValue()).toBe('');
    await expect.poll(() => page.getByText('Shelf label scanned').first().isVisible()).toBe(true);
    await context.close();

    // The print view at phone width in the dark theme: the paper stays white.
    const phone = await stack.newPage({ width: 390, height: 844 }, { colorScheme: 'dark' });
    await stack.signInAsDemo(phone.page);
    await phone.page.goto(`/print/labels?mailroom=${mailroom.id}&format=a4`);
    await expect.poll(() => phone.page.getByRole('article').count()).toBe(2);
    await stack.screenshot(phone.page, 'printing-labels-a4-phone-dark');
    await chooseFormat(phone.page, '62 mm roll');
    await stack.screenshot(phone.page, 'printing-labels-label62-phone-dark');
    await phone.context.close();
  });
});

describe('pickup slips', () => {
  it('prints an item’s slip from Mail Intake and a page of them from Pending Pickups, never with the pickup code', async () => {
    const { context, page } = await stack.newPage({ width: 1280, height: 800 }, { colorScheme: 'light' });
    await stack.signInAsDemo(page);
    const recipient = await api<{ id: string }>(page, 'POST', '/api/recipients', {
      firstName: 'Amara',
      lastName: 'Okafor',
      unit: '12B',
    });
    const [location] = await api<Array<{ id: string; name: string }>>(page, 'GET', '/api/mailroom-locations');
    const item = await api<{ id: string }>(page, 'POST', '/api/mail-items', {
      type: 'package',
      recipientId: recipient.id,
      trackingNumber: '1Z999AA10123456784',
      courierCompany: 'UPS',
      locationId: location!.id,
    });
    await api(page, 'POST', '/api/mail-items', { type: 'letter', recipientId: recipient.id });
    const { code } = await api<{ code: string }>(page, 'GET', `/api/recipients/${recipient.id}/pickup-code`);

    await page.goto('/mail-intake');
    const actions = page.getByRole('button', { name: 'Actions for Package for Amara Okafor' }).first();
    await expect.poll(() => actions.isVisible()).toBe(true);
    await actions.click();
    const view = await opened(context, () => page.getByRole('menuitem', { name: 'Print pickup slip' }).click());
    const slip = view.getByRole('article', { name: 'Pickup slip for Amara Okafor' });
    await expect.poll(() => slip.isVisible()).toBe(true);
    const text = await slip.innerText();
    for (const fact of ['Amara Okafor', 'Unit 12B', '1Z999AA10123456784', 'UPS', location!.name]) {
      expect(text).toContain(fact);
    }
    // The slip sits on the parcel: the code that collects it is never on it.
    expect(await view.locator('body').innerText()).not.toContain(code);
    expect(await view.locator('body').innerText()).not.toContain(code.replace('-', ''));
    const qr = await slip.getByRole('img', { name: /QR code of item/ }).screenshot();
    expect(await readQr(qr)).toBe(`pigeonhole:item:${item.id}`);

    for (const [format, width, height, shot] of [
      ['62 mm roll', 62, 100, 'label62'],
      ['A4', 210, 297, 'a4'],
      ['US Letter', 215.9, 279.4, 'letter'],
    ] as const) {
      await chooseFormat(view, format);
      await expectPdfPage(view, width, height);
      await stack.screenshot(view, `printing-slips-${shot}-desktop-light`);
    }
    await view.close();

    // Pending Pickups: one slip from a row, or the whole page of them.
    await page.goto('/pending-pickups');
    const one = page.getByRole('button', { name: 'Print pickup slip: Letter for Amara Okafor' }).first();
    await expect.poll(() => one.isVisible()).toBe(true);
    const single = await opened(context, () => one.click());
    await expect.poll(() => single.getByRole('article').count()).toBe(1);
    await single.close();
    const pageButton = page.getByRole('button', { name: /^Print \d+ slips$/ });
    const count = Number((await pageButton.innerText()).match(/\d+/)![0]);
    const many = await opened(context, () => pageButton.click());
    await expect.poll(() => many.getByRole('article').count()).toBe(count);
    await many.close();
    await context.close();

    const phone = await stack.newPage({ width: 390, height: 844 }, { colorScheme: 'dark' });
    await stack.signInAsDemo(phone.page);
    await phone.page.goto(`/print/slips?items=${item.id}&format=label62`);
    await expect.poll(() => phone.page.getByRole('article').count()).toBe(1);
    await stack.screenshot(phone.page, 'printing-slips-label62-phone-dark');
    await phone.page.goto(`/print/slips?items=${item.id},00000000-0000-4000-8000-000000000000&format=a4`);
    await expect.poll(() => phone.page.getByText('1 item no longer exists and is left out.').isVisible()).toBe(true);
    await stack.screenshot(phone.page, 'printing-slips-a4-phone-dark');
    await phone.context.close();
  });
});

/**
 * A Y4M video of a QR for Chromium's fake camera: a 640x480 grey picture (Y plane) with neutral
 * colour planes, two identical frames (Chromium loops the file).
 */
async function qrVideo(text: string, file: string) {
  const [width, height] = [640, 480];
  const png = await sharp(Buffer.from(renderSVG(text, { border: 4 })), { density: 300 })
    .resize(300, 300, { kernel: 'nearest' })
    .png()
    .toBuffer();
  const { data } = await sharp(png)
    .resize({ width, height, fit: 'contain', background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const frame = Buffer.concat([Buffer.from('FRAME\n'), data, Buffer.alloc((width / 2) * (height / 2) * 2, 128)]);
  fs.writeFileSync(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]),
  );
  return png;
}

describe('the camera at the hand-over search', () => {
  it('reads a recipient’s pickup code QR from the live camera and shows their waiting items', async () => {
    // the recipient and their code first: the fake camera's video is fixed when Chromium starts
    const setup = await stack.newPage();
    await stack.signInAsDemo(setup.page);
    const recipient = await api<{ id: string }>(setup.page, 'POST', '/api/recipients', {
      firstName: 'Tomas',
      lastName: 'Lindqvist',
      unit: '7A',
    });
    for (const tracking of ['1ZCAMERA0001', '1ZCAMERA0002']) {
      await api(setup.page, 'POST', '/api/mail-items', {
        type: 'package',
        recipientId: recipient.id,
        trackingNumber: tracking,
      });
    }
    const { code } = await api<{ code: string }>(setup.page, 'GET', `/api/recipients/${recipient.id}/pickup-code`);

    // Without a camera at all (the stack's Chromium has none): a clear sentence, typing still works.
    await setup.page.goto('/pending-pickups');
    await setup.page.getByRole('button', { name: 'Scan with camera' }).click();
    await expect
      .poll(() => setup.page.locator('[data-camera-state]').getAttribute('data-camera-state'))
      .toMatch(/^(no-camera|denied)$/);
    expect(await setup.page.getByRole('alert').first().innerText()).toMatch(/type the code/i);
    expect(await setup.page.getByLabel('Hand over by pickup code').isEditable()).toBe(true);
    await stack.screenshot(setup.page, 'printing-camera-unavailable-desktop-light');

    // A browser without getUserMedia: a photo of the QR, read once.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pigeonhole-code-camera-'));
    const video = path.join(dir, 'code.y4m');
    const qrPng = await qrVideo(code, video);
    await setup.context.close();
    const noLive = await stack.newPage({ width: 390, height: 844 }, { colorScheme: 'dark' });
    await noLive.context.addInitScript(() => {
      Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true });
    });
    await stack.signInAsDemo(noLive.page);
    await noLive.page.goto('/pending-pickups');
    await noLive.page.getByRole('button', { name: 'Scan with camera' }).click();
    await expect
      .poll(() => noLive.page.getByText('Take a photo of the QR code', { exact: true }).isVisible())
      .toBe(true);
    await stack.screenshot(noLive.page, 'printing-camera-photo-phone-dark');
    await noLive.page.getByLabel('Take a photo of the QR code').setInputFiles({
      name: 'code.png',
      mimeType: 'image/png',
      buffer: qrPng,
    });
    await expect
      .poll(() => noLive.page.getByRole('dialog', { name: 'Hand over to Tomas Lindqvist' }).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    await noLive.context.close();

    // The live camera (Chromium's fake device playing a video): first a QR that is not a pickup code.
    const views = [
      ['desktop-light', { width: 1280, height: 800 }, 'light'],
      ['phone-dark', { width: 390, height: 844 }, 'dark'],
    ] as const;
    const other = path.join(dir, 'other.y4m');
    await qrVideo('https://example.com/not-a-code', other);
    const wrongBrowser = await launchWithCamera(other);
    try {
      for (const [label, viewport, colorScheme] of views) {
        const context = await wrongBrowser.newContext({ viewport, colorScheme, baseURL: stack.url });
        await context.grantPermissions(['camera']);
        const page = await context.newPage();
        page.setDefaultTimeout(10_000);
        await stack.signInAsDemo(page);
        await page.goto('/pending-pickups');
        await page.getByRole('button', { name: 'Scan with camera' }).click();
        await expect
          .poll(() => page.getByText('That code is not a pickup code', { exact: false }).isVisible(), {
            timeout: 15_000,
          })
          .toBe(true);
        expect(await page.locator('[data-camera-state]').getAttribute('data-camera-state')).toBe('reading');
        await stack.screenshot(page, `printing-camera-reading-${label}`);
        await context.close();
      }
    } finally {
      await wrongBrowser.close();
    }

    // Then the recipient's QR: read, the camera stops, and their items show.
    const browser = await launchWithCamera(video);
    try {
      for (const [label, viewport, colorScheme] of views) {
        const context = await browser.newContext({ viewport, colorScheme, baseURL: stack.url });
        await context.grantPermissions(['camera']);
        const page = await context.newPage();
        page.setDefaultTimeout(10_000);
        await stack.signInAsDemo(page);
        await page.goto('/pending-pickups');
        await page.getByRole('button', { name: 'Scan with camera' }).click();
        const dialog = page.getByRole('dialog', { name: 'Hand over to Tomas Lindqvist' });
        await expect.poll(() => dialog.isVisible(), { timeout: 15_000 }).toBe(true);
        expect(await dialog.getByRole('checkbox').count()).toBe(2);
        // the code read shows in the field, and the camera has stopped
        expect(await page.getByLabel('Hand over by pickup code').inputValue()).toBe(code);
        expect(await page.locator('video').count()).toBe(0);
        await stack.screenshot(page, `printing-camera-read-${label}`);
        await context.close();
      }
    } finally {
      await browser.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
