import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Page } from 'playwright-core';
import { prepareZXingModule, writeBarcode } from 'zxing-wasm/writer';
import { completeHandOver } from './support/page-api';
import { launchWithCamera, startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

const login = (page: Page) => stack.signInAsDemo(page);

/** A GET from inside the page: the session cookie and the selected organization, as the app sends them. */
async function api<T>(page: Page, url: string): Promise<{ body: T; total: string | null }> {
  return page.evaluate(async (target) => {
    const res = await fetch(target, {
      headers: { 'x-organization-id': localStorage.getItem('selectedOrganizationId') ?? '' },
      credentials: 'include',
    });
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    return { body: await res.json(), total: res.headers.get('x-total-count') };
  }, url);
}

/** A PUT from inside the page, as the app sends it. */
async function apiPut(page: Page, url: string, body: unknown) {
  await page.evaluate(
    async ([target, json]) => {
      const res = await fetch(target, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          'x-organization-id': localStorage.getItem('selectedOrganizationId') ?? '',
        },
        credentials: 'include',
        body: JSON.stringify(json),
      });
      if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    },
    [url, body] as const,
  );
}

/** The desk's lists ask GET /api/mail-items for summary rows. */
function summaryListRequest(page: Page) {
  return page.waitForRequest((req) => {
    const url = new URL(req.url());
    return req.method() === 'GET' && url.pathname === '/api/mail-items' && url.searchParams.get('view') === 'summary';
  });
}

/** A promise and what resolves it: a request held until the test lets it go. */
function gate(): [Promise<void>, () => void] {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return [opened, open];
}

interface LocationRow {
  name: string;
  currentCount: number;
}

async function shelfACount(page: Page) {
  const { body } = await api<LocationRow[]>(page, '/api/mailroom-locations');
  return body.find((l) => l.name === 'Shelf A')!.currentCount;
}

async function statValue(page: Page, group: string) {
  return (await page.getByRole('group', { name: group }).locator('[data-stat-value]').innerText()).trim();
}

/** A small real PNG, as a phone or desk camera would hand over (a photo of a brown box). */
function packagePng() {
  return sharp({ create: { width: 320, height: 240, channels: 3, background: '#b07b46' } })
    .png()
    .toBuffer();
}

/** A picture of a Code 128 label barcode with a white quiet zone, made with ZXing's writer. */
async function barcodePng(text: string) {
  prepareZXingModule({
    overrides: {
      wasmBinary: fs.readFileSync('node_modules/zxing-wasm/dist/writer/zxing_writer.wasm').buffer as ArrayBuffer,
    },
  });
  const written = await writeBarcode(text, { format: 'Code128', scale: 3 });
  if (!written.image) throw new Error(written.error);
  const bars = Buffer.from(await written.image.arrayBuffer());
  return sharp(bars).extend({ top: 40, bottom: 40, left: 40, right: 40, background: '#ffffff' }).png().toBuffer();
}

/**
 * A Y4M video of the label for Chromium's fake camera: a 640x480 grey picture (Y plane) with
 * neutral colour planes, two identical frames (Chromium loops the file).
 */
async function labelVideo(png: Buffer, file: string) {
  const [width, height] = [640, 480];
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
}

describe('the front desk', () => {
  it('logs a package with a photo on Shelf A, notifies the recipient and hands it over', async () => {
    const { context, page } = await stack.newPage();
    await login(page);
    // This journey notifies by hand; auto-notify (on by default) would notify Lucas as soon as the
    // notification worker's email is accepted (the notifications journey covers that).
    await page.evaluate(async () => {
      const [org] = (await (await fetch('/api/organizations')).json()) as Array<{ id: string }>;
      const res = await fetch(`/api/organization-settings/${org!.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ autoNotifyRecipients: false }),
      });
      if (!res.ok) throw new Error(`turning auto-notify off answered ${res.status}`);
    });
    const shelfBefore = await shelfACount(page);
    const todayBefore = Number(await statValue(page, "Today's Mail"));

    const intakeList = summaryListRequest(page);
    await page.getByRole('link', { name: 'Mail Intake' }).click();
    await intakeList;
    await expect.poll(() => page.getByRole('heading', { name: 'Mail Intake' }).isVisible()).toBe(true);
    expect(await page.getByText('Process and track incoming mail and packages').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Log New Mail' }).click();

    // Focus starts in Tracking Number; the courier is detected from the number's format.
    await expect
      .poll(() => page.evaluate(() => document.activeElement === document.querySelector('input[data-autofocus]')))
      .toBe(true);
    await page.keyboard.type('1Z999AA10123456784');
    await expect.poll(() => page.getByLabel('Courier Company').innerText()).toBe('UPS');
    await page.keyboard.press('Enter');
    // Enter moved focus to Recipient: typing there searches.
    await page.keyboard.type('Luc');
    await expect.poll(() => page.getByRole('option', { name: /Lucas Meyer/ }).isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.getByRole('combobox', { name: 'Recipient' }).inputValue()).toBe('Lucas Meyer (Unit 102)');

    await page.getByLabel('Storage Location').click();
    await page.getByRole('option', { name: /^Shelf A/ }).click();
    await page.getByLabel('Sender').fill('Acme Outfitters');
    await page.getByLabel('Description').fill('Tall box, handle with care');
    await page.getByLabel('Received by').fill('Sam at the desk');
    await page.getByLabel('Choose a photo').setInputFiles({
      name: 'package.png',
      mimeType: 'image/png',
      buffer: await packagePng(),
    });
    await expect.poll(() => page.getByRole('img', { name: 'Package photo preview' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Log Mail' }).click();
    await expect.poll(() => page.getByText('Logged for Lucas Meyer — 1 this session').isVisible()).toBe(true);
    // Ready for the next package: storage kept, the rest cleared, focus back in Tracking Number.
    expect(await page.getByLabel('Storage Location').innerText()).toMatch(/^Shelf A/);
    expect(await page.getByLabel('Tracking Number').inputValue()).toBe('');
    expect(await page.getByLabel('Courier Company').innerText()).toBe('Not specified');
    await page.getByRole('button', { name: 'Cancel' }).click();
    // A note added meanwhile (by another desk): only the full item carries it, not the list's row.
    const { body: logged } = await api<{ id: string }[]>(page, '/api/mail-items?search=Acme%20Outfitters');
    await apiPut(page, `/api/mail-items/${logged[0]!.id}`, { notes: 'Leave at the side door' });

    // In the Recent Mail Items list, with details, timeline and the stored photo. The row is a
    // summary: opening it loads the full item (description, collected by, notes).
    const row = page.getByRole('button', { name: /Package for Lucas Meyer.*From Acme Outfitters/ });
    await expect.poll(() => row.isVisible()).toBe(true);
    const fullItem = page.waitForRequest((req) => new URL(req.url()).pathname === `/api/mail-items/${logged[0]!.id}`);
    await row.click();
    await fullItem;
    const details = page.getByRole('region', { name: 'Details: Package for Lucas Meyer' });
    await expect.poll(() => details.getByText('1Z999AA10123456784').isVisible()).toBe(true);
    expect(await details.getByText('Shelf A · Lobby Mailroom').isVisible()).toBe(true);
    await expect.poll(() => details.getByText('Tall box, handle with care').isVisible()).toBe(true);
    expect(await details.getByText('Sam at the desk').isVisible()).toBe(true);
    expect(await details.getByText('Leave at the side door').isVisible()).toBe(true);
    expect(await details.getAttribute('aria-busy')).toBeNull();
    await expect.poll(() => details.getByText('Logged', { exact: true }).isVisible()).toBe(true);
    await expect
      .poll(() =>
        details
          .getByRole('button', { name: 'View full-size photo' })
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBeGreaterThan(0);
    await details.getByRole('button', { name: 'View full-size photo' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Package Photo' }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => shelfACount(page)).toBe(shelfBefore + 1);

    // Edit opens on the full item (its description), and saves only what changed.
    const puts: unknown[] = [];
    page.on('request', (req) => {
      if (req.method() === 'PUT' && new URL(req.url()).pathname.startsWith('/api/mail-items/')) {
        puts.push(req.postDataJSON());
      }
    });
    await page
      .getByRole('listitem')
      .filter({ has: row })
      .getByRole('button', { name: /^Actions for / })
      .click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Mail Item' });
    await expect.poll(() => edit.getByLabel('Description').inputValue()).toBe('Tall box, handle with care');
    expect(await edit.getByLabel('Sender').inputValue()).toBe('Acme Outfitters');
    expect(await edit.getByRole('combobox', { name: 'Recipient' }).inputValue()).toMatch(/^Lucas Meyer/);
    // Focus waited on Close while it loaded; the first field has it now.
    await expect
      .poll(() => edit.getByRole('combobox', { name: 'Package Type' }).evaluate((el) => el === document.activeElement))
      .toBe(true);
    await edit.getByLabel('Description').fill('Tall box, this side up');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => edit.isVisible()).toBe(false);
    expect(puts).toEqual([{ description: 'Tall box, this side up' }]);
    // The open details refresh with the change.
    await expect.poll(() => details.getByText('Tall box, this side up').isVisible()).toBe(true);

    // The dashboard shows it.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect.poll(() => page.getByText('From Acme Outfitters', { exact: false }).first().isVisible()).toBe(true);
    await expect.poll(() => statValue(page, "Today's Mail")).toBe(String(todayBefore + 1));

    // Pending Pickups: notify, then hand over with the collector's name.
    const pendingList = summaryListRequest(page);
    await page.getByRole('link', { name: 'Pending Pickups' }).click();
    await pendingList;
    const pendingRow = page.getByRole('row').filter({ hasText: 'Acme Outfitters' });
    await expect.poll(() => pendingRow.isVisible()).toBe(true);
    const notifiedBefore = Number(await statValue(page, 'Notified'));
    await pendingRow.getByRole('button', { name: /^Notify/ }).click();
    await expect.poll(() => pendingRow.getByText('Notified', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => statValue(page, 'Notified')).toBe(String(notifiedBefore + 1));
    expect(await pendingRow.getByRole('button', { name: /^Notify/ }).count()).toBe(0);

    // The row's Delivered opens the one hand-over (decision 053): this item ticked, the collector
    // named, how identified, and the signature a new organization asks for.
    await pendingRow.getByRole('button', { name: /^Delivered/ }).click();
    const deliver = page.getByRole('dialog', { name: /^Hand over to / });
    await expect.poll(() => deliver.isVisible()).toBe(true);
    expect(await deliver.getByLabel('ID checked').isChecked()).toBe(true);
    expect(await deliver.getByRole('button', { name: 'Hand over 1 item' }).isVisible()).toBe(true);
    await completeHandOver(page, 'Jordan Meyer');
    await expect.poll(() => pendingRow.count()).toBe(0);
    await expect.poll(() => shelfACount(page)).toBe(shelfBefore);

    const { body: found } = await api<{ status: string; collectorName: string; handedOverBy: string | null }[]>(
      page,
      '/api/mail-items?search=Acme%20Outfitters',
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ status: 'delivered', collectorName: 'Jordan Meyer' });
    expect(found[0]!.handedOverBy).toBeTruthy();
    // The proof, in History: the collector, how identified, signed.
    await page.goto('/history?q=Acme%20Outfitters');
    await page
      .getByRole('button', { name: /^Details: / })
      .first()
      .click();
    const proof = page.getByRole('region', { name: /^Details: / });
    await expect
      .poll(() =>
        proof
          .getByText(/Collected by Jordan Meyer · ID checked, signed/)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await context.close();
  });

  it('logs ten packages in a row with the keyboard only, as a USB scanner and a clerk would', async () => {
    const { context, page } = await stack.newPage();
    await login(page);
    // A slow network or a busy server: the recipient list arrives after the clerk has already
    // scanned, typed the letters and pressed Enter twice. Nothing typed may be lost meanwhile.
    let slowed = 0;
    await page.route('**/api/recipients?**', async (route) => {
      if (slowed++ === 0) await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto('/mail-intake');
    await page.getByRole('button', { name: 'Log New Mail' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('dialog', { name: 'Log New Mail' }).isVisible()).toBe(true);

    const people = [
      ['Ama', 'Amara Okafor'],
      ['Luc', 'Lucas Meyer'],
      ['Sof', 'Sofia Rossi'],
      ['Hir', 'Hiroshi Tanaka'],
      ['Pri', 'Priya Sharma'],
      ['Dan', 'Daniel Cohen'],
      ['Ele', 'Elena Petrova'],
      ['Mar', 'Marcus Johnson'],
      ['Oka', 'Amara Okafor'],
      ['Ros', 'Sofia Rossi'],
    ] as const;
    const posted: unknown[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/mail-items')) posted.push(req.postDataJSON());
    });
    let presses = 0;
    for (const [i, [letters, name]] of people.entries()) {
      const perPackage = presses;
      // The scanner types the code and presses Enter: one action for the clerk.
      await page.keyboard.type(`PH-KB-${String(i + 1).padStart(4, '0')}`);
      await page.keyboard.press('Enter');
      presses += 1;
      for (const letter of letters) {
        await page.keyboard.press(letter);
        presses += 1;
      }
      await page.keyboard.press('Enter'); // picks the first match
      presses += 1;
      // Enter logs it (Ctrl+Enter does too, from any field: the last package uses it).
      await page.keyboard.press(i === people.length - 1 ? 'Control+Enter' : 'Enter');
      presses += 1;
      expect(presses - perPackage).toBeLessThanOrEqual(6);
      await expect.poll(() => page.getByText(`Logged for ${name} — ${i + 1} this session`).isVisible()).toBe(true);
    }
    expect(presses).toBe(60);
    // Every scan reached Tracking Number whole.
    expect(posted.map((b) => (b as { trackingNumber: string }).trackingNumber)).toEqual(
      people.map((_, i) => `PH-KB-${String(i + 1).padStart(4, '0')}`),
    );

    // A slow save: the next package is scanned and logged before the previous one is answered.
    let heldPost = false;
    await page.route('**/api/mail-items', async (route) => {
      if (route.request().method() === 'POST' && !heldPost) {
        heldPost = true;
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      await route.continue();
    });
    for (const [code, letters] of [
      ['PH-KB-0011', 'Pri'],
      ['PH-KB-0012', 'Dan'],
    ] as const) {
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
      for (const letter of letters) await page.keyboard.press(letter);
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
    }
    await expect.poll(() => page.getByText('Logged for Daniel Cohen — 12 this session').isVisible()).toBe(true);
    expect(posted.slice(10).map((b) => (b as { trackingNumber: string }).trackingNumber)).toEqual([
      'PH-KB-0011',
      'PH-KB-0012',
    ]);

    // A refused save gives the package back to the form, with the reason (spec §8: 'Error'). (No
    // answer, or a 5xx, keeps it on the device to be sent again: offline-intake.e2e.ts.)
    await page.unroute('**/api/mail-items');
    let failAfterMs = 0;
    await page.route('**/api/mail-items', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await new Promise((resolve) => setTimeout(resolve, failAfterMs));
      await route.fulfill({
        status: 402,
        contentType: 'application/json',
        body: '{"message":"Package limit reached"}',
      });
    });
    const errorToast = page.getByRole('status').filter({ hasText: 'Error' });
    await page.keyboard.type('PH-KB-FAIL');
    await page.keyboard.press('Enter');
    for (const letter of 'Ele') await page.keyboard.press(letter);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expect.poll(() => errorToast.filter({ hasText: 'Package limit reached' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByLabel('Tracking Number').inputValue()).toBe('PH-KB-FAIL');
    await expect.poll(() => page.getByLabel('Recipient', { exact: true }).inputValue()).toBe('Elena Petrova');
    await page.keyboard.press('Escape'); // dismisses the toast (the newest layer), not the dialog
    await expect.poll(() => errorToast.count()).toBe(0);

    // When the clerk has already started the next package, the failed one is named instead.
    failAfterMs = 1000;
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByLabel('Tracking Number').inputValue()).toBe('');
    await page.keyboard.type('PH-KB-NEXT');
    await expect
      .poll(() => errorToast.filter({ hasText: 'Package limit reached (PH-KB-FAIL was not logged)' }).isVisible())
      .toBe(true);
    expect(await page.getByLabel('Tracking Number').inputValue()).toBe('PH-KB-NEXT');
    await page.unroute('**/api/mail-items');

    const { body, total } = await api<{ trackingNumber: string; recipient: { firstName: string; lastName: string } }[]>(
      page,
      '/api/mail-items?search=PH-KB-&limit=50',
    );
    expect(total).toBe('12');
    const byCode = new Map(
      body.map((item) => [item.trackingNumber, `${item.recipient.firstName} ${item.recipient.lastName}`]),
    );
    for (const [i, [, name]] of people.entries()) {
      expect(byCode.get(`PH-KB-${String(i + 1).padStart(4, '0')}`)).toBe(name);
    }
    expect(byCode.get('PH-KB-0011')).toBe('Priya Sharma');
    expect(byCode.get('PH-KB-0012')).toBe('Daniel Cohen');
    // The first Escape dismisses the error toast, the second closes the dialog.
    await page.keyboard.press('Escape');
    await expect.poll(() => errorToast.count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'Log New Mail' }).isVisible()).toBe(false);
    await expect
      .poll(() => page.getByRole('button', { name: /Package for Daniel Cohen.*PH-KB-0012/ }).isVisible())
      .toBe(true);
    await context.close();
  });

  it('without a camera, Scan Barcode reads the tracking number from a picture of the label', async () => {
    const { context, page } = await stack.newPage();
    const offCdn: string[] = [];
    page.on('request', (req) => {
      if (/^https?:/.test(req.url()) && !req.url().startsWith(stack.url)) offCdn.push(req.url());
    });
    await login(page);
    await page.goto('/mail-intake');
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    await page.getByRole('tab', { name: 'Scan Barcode' }).click();
    await expect.poll(() => page.getByText('No camera is available here', { exact: false }).isVisible()).toBe(true);
    await page.getByLabel('Choose a picture of the label').setInputFiles({
      name: 'label.png',
      mimeType: 'image/png',
      buffer: await barcodePng('1Z999AA10123456784'),
    });
    await expect
      .poll(() => page.getByLabel('Tracking Number').inputValue(), { timeout: 15_000 })
      .toBe('1Z999AA10123456784');
    expect(await page.getByLabel('Courier Company').innerText()).toBe('UPS');
    // Focus went on to the recipient, and the label picture became the package photo.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    expect(await page.getByRole('img', { name: 'Package photo preview' }).isVisible()).toBe(true);
    // The ZXing WebAssembly came from our own server, never a CDN.
    expect(offCdn).toEqual([]);
    await context.close();
  });

  it('refuses photos that break the client-side rules, with the specification messages', async () => {
    const { context, page } = await stack.newPage();
    await login(page);
    await page.goto('/mail-intake');
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    const picker = page.getByLabel('Choose a photo');

    await picker.setInputFiles({ name: 'notes.png', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await expect
      .poll(() =>
        page
          .getByRole('alert')
          .filter({ hasText: 'Please select a valid image file (JPEG, PNG, WebP, or GIF)' })
          .isVisible(),
      )
      .toBe(true);

    // Desktop caps images at 2,000,000 pixels.
    const huge = await sharp({ create: { width: 2000, height: 1100, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    await picker.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: huge });
    await expect
      .poll(() =>
        page
          .getByRole('alert')
          .filter({ hasText: 'Image too large for mobile device - please select a smaller image' })
          .isVisible(),
      )
      .toBe(true);
    expect(await page.getByRole('img', { name: 'Package photo preview' }).count()).toBe(0);

    // A fitting picture is resized to at most 800x600 and sent as JPEG.
    const fits = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    await picker.setInputFiles({ name: 'fits.png', mimeType: 'image/png', buffer: fits });
    const preview = page.getByRole('img', { name: 'Package photo preview' });
    await expect.poll(() => preview.count()).toBe(1);
    expect(await preview.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
    expect(await preview.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([
      800, 600,
    ]);
    await context.close();
  });

  it('with a camera, Scan Barcode decodes the label from the live video', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pigeonhole-camera-'));
    const video = path.join(dir, 'label.y4m');
    await labelVideo(await barcodePng('1Z999AA10123456784'), video);
    const browser = await launchWithCamera(video);
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: stack.url });
      await context.grantPermissions(['camera']);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await login(page);
      await page.goto('/mail-intake');
      await page.getByRole('button', { name: 'Log New Mail' }).click();
      await page.getByRole('tab', { name: 'Scan Barcode' }).click();
      await expect
        .poll(() => page.getByRole('textbox', { name: 'Tracking Number' }).inputValue(), { timeout: 15_000 })
        .toBe('1Z999AA10123456784');
      expect(await page.getByLabel('Courier Company').innerText()).toBe('UPS');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
      expect(await page.getByRole('img', { name: 'Package photo preview' }).isVisible()).toBe(true);
      // The scan, a name and Enter twice log it.
      await page.keyboard.type('Hir');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByText('Logged for Hiroshi Tanaka — 1 this session').isVisible()).toBe(true);
      // The scanner is live again for the next package, but the label still in view is not read twice.
      await page.waitForTimeout(1500);
      expect(await page.getByRole('textbox', { name: 'Tracking Number' }).inputValue()).toBe('');
      expect(await page.getByText('Point the camera at the barcode').isVisible()).toBe(true);
      await context.close();
    } finally {
      await browser.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('at phone width intake and pending pickups fit the screen', async () => {
    const { context, page } = await stack.newPage({ width: 390, height: 844 });
    await login(page);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

    // A fresh load, so the welcome toast does not cover the screenshots.
    await page.goto('/mail-intake');
    await expect.poll(() => page.getByRole('heading', { name: 'Recent Mail Items' }).isVisible()).toBe(true);
    await expect.poll(() => page.locator('ul[aria-label="Recent mail items"] > li').count()).toBeGreaterThan(0);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await stack.screenshot(page, 'front-desk-intake-phone');

    await page.getByRole('button', { name: 'Log New Mail' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log New Mail' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await stack.screenshot(page, 'front-desk-log-mail-phone');
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Pending Pickups' }).click();
    await expect.poll(() => page.getByRole('group', { name: 'Total Pending' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('list', { name: 'Pending pickups' }).isVisible()).toBe(true);
    expect(await page.getByRole('list', { name: 'Pending pickups' }).getByText('Overdue').first().isVisible()).toBe(
      true,
    );
    expect(await overflow()).toBeLessThanOrEqual(0);
    await stack.screenshot(page, 'front-desk-pending-phone');
    await context.close();
  });

  it('an opened row shows placeholders while its item loads, and a retry when it cannot, at desktop and phone widths', async () => {
    for (const [width, height, label] of [
      [1280, 800, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      const { context, page } = await stack.newPage({ width, height });
      await login(page);
      await page.goto('/mail-intake');
      const rows = page.locator('ul[aria-label="Recent mail items"] > li');
      await expect.poll(() => rows.count()).toBeGreaterThan(0);

      // The full item is held, then refused once: what a slow or failing network shows.
      const itemRequest = (url: URL) => /^\/api\/mail-items\/[0-9a-f-]{36}$/.test(url.pathname);
      const [held, release] = gate();
      let refused = false;
      await page.route(itemRequest, async (route) => {
        if (route.request().method() !== 'GET' || refused) return route.continue();
        await held;
        refused = true;
        await route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"message":"Service unavailable"}',
        });
      });
      const opened = rows.first().getByRole('button').first();
      await opened.click();
      const details = page.getByRole('region', { name: /^Details: / });
      await expect.poll(() => details.locator('[aria-busy="true"]').count()).toBeGreaterThan(0);
      // The row's own values show at once; only what the row lacks waits.
      expect(await details.isVisible()).toBe(true);
      await stack.screenshot(page, `front-desk-details-loading-${label}`);

      release();
      const failed = details.getByRole('alert');
      await expect
        .poll(() => failed.textContent())
        .toBe('The details of this mail item could not be loaded. Try again');
      expect(await details.locator('[aria-busy="true"]').count()).toBe(0);
      await stack.screenshot(page, `front-desk-details-error-${label}`);

      // Try again loads it: the alert goes, and the item's timeline is there.
      await failed.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => failed.count()).toBe(0);
      await expect.poll(() => details.getByText('Logged', { exact: true }).isVisible()).toBe(true);

      // The Edit dialog loads the item afresh: placeholders for the form until it is here.
      const [editHeld, releaseEdit] = gate();
      await page.unrouteAll();
      await page.route(itemRequest, async (route) => {
        await editHeld;
        await route.continue();
      });
      await rows
        .first()
        .getByRole('button', { name: /^Actions for / })
        .click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Mail Item' });
      await expect.poll(() => edit.locator('[aria-busy="true"]').count()).toBe(1);
      await stack.screenshot(page, `front-desk-edit-loading-${label}`);
      releaseEdit();
      await expect.poll(() => edit.getByLabel('Sender').isVisible()).toBe(true);
      expect(await edit.locator('[aria-busy="true"]').count()).toBe(0);
      await context.close();
    }
  });
});
