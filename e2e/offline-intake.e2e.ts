import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/page-api';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

type Summary = { id: string; trackingNumber: string | null; photoUrl: string | null };

const packagePng = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: '#8a6' } })
    .png()
    .toBuffer();

/** Logs one package in the open Log Mail dialog: its number, the recipient picked from the list. */
async function logPackage(page: Page, tracking: string, recipient: string, photo?: Buffer) {
  await page.getByLabel('Tracking Number').fill(tracking);
  await page.getByRole('combobox', { name: 'Recipient' }).fill(recipient);
  await expect.poll(() => page.getByRole('option', { name: new RegExp(recipient) }).isVisible()).toBe(true);
  await page.getByRole('option', { name: new RegExp(recipient) }).click();
  if (photo) {
    await page
      .getByLabel('Choose a photo')
      .setInputFiles({ name: 'package.png', mimeType: 'image/png', buffer: photo });
    await expect.poll(() => page.getByRole('img', { name: 'Package photo preview' }).isVisible()).toBe(true);
  }
  await page.getByRole('button', { name: 'Log Mail' }).click();
}

/** The items on the server whose tracking number starts with `prefix` (the API's own count). */
async function onServer(page: Page, prefix: string) {
  return api<Summary[]>(page, 'GET', `/api/mail-items?view=summary&limit=100&search=${encodeURIComponent(prefix)}`);
}

/** Issue 29 item 2 (decision 044): the network goes while the desk logs mail. */
describe('offline intake', () => {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`keeps logging with the network gone and sends each item once when it returns (${label})`, async () => {
      const { context, page } = await stack.newPage(viewport);
      await stack.signInAsDemo(page);
      const prefix = `OFF${label.toUpperCase()}`;
      const names = [`Ada Offline${label}`, `Bo Offline${label}`, `Cy Doomed${label}`];
      const [ada, bo, cy] = await Promise.all(
        names.map((name) => {
          const [firstName, lastName] = name.split(' ');
          return api<{ id: string }>(page, 'POST', '/api/recipients', { firstName, lastName });
        }),
      );

      // The page is loaded, and Log Mail was opened once online (the recipient list it loads is
      // what the picker searches offline).
      await page.getByRole('link', { name: 'Mail Intake' }).first().click();
      await expect.poll(() => page.getByRole('heading', { name: 'Mail Intake' }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Log New Mail' }).click();
      await expect.poll(() => page.getByLabel('Tracking Number').isVisible()).toBe(true);

      await context.setOffline(true);
      await logPackage(page, `${prefix}-1`, names[0]!, await packagePng());
      await expect.poll(() => page.getByText(/saved on this device, waiting to sync/).isVisible()).toBe(true);
      await logPackage(page, `${prefix}-2`, names[1]!);
      await logPackage(page, `${prefix}-3`, names[0]!);
      await expect.poll(() => page.getByText(/3 this session/).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Cancel' }).click();

      // The header counts them and Mail Intake lists them, while the list loaded before stays.
      await expect.poll(() => page.getByTestId('outbox-count').innerText()).toBe('3');
      await expect.poll(() => page.getByTestId('waiting-row').count()).toBe(3);
      expect(await page.getByTestId('outbox-status').innerText()).toMatch(/Offline/);
      await expect.poll(() => page.getByText(/Waiting to sync \(3\)/).isVisible()).toBe(true);
      await stack.screenshot(page, `offline-intake-waiting-${label}`);

      // A fourth, for a recipient someone deletes on another screen while this desk is offline.
      await page.getByRole('button', { name: 'Log New Mail' }).click();
      await logPackage(page, `${prefix}-4`, names[2]!);
      await expect.poll(() => page.getByText(/1 this session/).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => page.getByTestId('outbox-count').innerText()).toBe('4');
      const other = await stack.newPage();
      await stack.signInAsDemo(other.page);
      // (The page helper sends JSON; a DELETE has no body, so it goes as the app sends it.)
      const deleted = await other.page.evaluate(
        async (id) =>
          (
            await fetch(`/api/recipients/${id}`, {
              method: 'DELETE',
              headers: { 'x-organization-id': localStorage.getItem('selectedOrganizationId') ?? '' },
            })
          ).status,
        cy!.id,
      );
      expect(deleted).toBe(204);
      // Nothing reached the server yet.
      expect(await onServer(other.page, prefix)).toHaveLength(0);

      await context.setOffline(false);
      // Sent in order: three logged once each; the fourth refused, kept with the server's reason.
      await expect.poll(async () => (await onServer(other.page, prefix)).length, { timeout: 15_000 }).toBe(3);
      await expect.poll(() => page.getByTestId('outbox-count').innerText()).toBe('1');
      const refused = page.getByTestId('waiting-row');
      await expect.poll(() => refused.innerText()).toMatch(/Not logged: Recipient not found/);
      expect(await refused.innerText()).toContain(`${prefix}-4`);
      const items = await onServer(other.page, prefix);
      expect(items.map((i) => i.trackingNumber).sort()).toEqual([`${prefix}-1`, `${prefix}-2`, `${prefix}-3`]);
      expect(items.find((i) => i.trackingNumber === `${prefix}-1`)?.photoUrl).toMatch(/^\/api\/photos\//);
      // The list shows them (refreshed once they were sent).
      await expect.poll(() => page.getByText(`${prefix}-2`).filter({ visible: true }).first().isVisible()).toBe(true);
      await stack.screenshot(page, `offline-intake-refused-${label}`);

      // Corrected (another recipient), it is sent with its key and joins the others.
      await refused.getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Correct the waiting item' });
      await dialog.getByRole('combobox', { name: 'Recipient' }).fill(names[1]!);
      await page.getByRole('option', { name: new RegExp(names[1]!) }).click();
      await dialog.getByRole('button', { name: 'Send again' }).click();
      await expect.poll(async () => (await onServer(other.page, prefix)).length).toBe(4);
      await expect.poll(() => page.getByTestId('outbox-status').count()).toBe(0);
      void ada;
      void bo;
      await other.context.close();
      await context.close();
    });
  }

  // Issue 41 item 3 (decision 048): the server answers one item 500 every time (as it did for "Log
  // without recipient" of an expected parcel). Before, the outbox retried it for ever and every
  // item logged after it waited behind it.
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`sets aside an item the server keeps failing on and sends the next (${label})`, async () => {
      const { context, page } = await stack.newPage(viewport);
      await stack.signInAsDemo(page);
      const prefix = `FAIL500${label.toUpperCase()}`;
      const name = `Fay Failing${label}`;
      const [firstName, lastName] = name.split(' ');
      await api(page, 'POST', '/api/recipients', { firstName, lastName });
      // The server fails on this one item: a 500 with its usual body, as a real failing server answers.
      let failed = 0;
      await page.route('**/api/mail-items', async (route) => {
        const request = route.request();
        const body = request.method() === 'POST' ? (request.postDataJSON() as { trackingNumber?: string }) : {};
        if (body.trackingNumber !== `${prefix}-1`) return route.fallback();
        failed += 1;
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({
            message: 'Something went wrong on our side. Please try again.',
            code: 'internal_error',
          }),
        });
      });

      await page.getByRole('link', { name: 'Mail Intake' }).first().click();
      await page.getByRole('button', { name: 'Log New Mail' }).click();
      await logPackage(page, `${prefix}-1`, name);
      await expect.poll(() => page.getByText(/saved on this device, waiting to sync/).isVisible()).toBe(true);
      // The next item joins the line behind it (the order of intake holds while it is retried) …
      await logPackage(page, `${prefix}-2`, name);
      await page.getByRole('button', { name: 'Cancel' }).click();
      // … and is sent once the failing one is set aside after its bounded tries (about 14 s).
      await expect.poll(async () => (await onServer(page, prefix)).length, { timeout: 30_000 }).toBe(1);
      expect((await onServer(page, prefix)).map((i) => i.trackingNumber)).toEqual([`${prefix}-2`]);
      const row = page.getByTestId('waiting-row');
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.innerText()).toContain(`${prefix}-1`);
      expect(await row.getByTestId('set-aside-reason').innerText()).toBe(
        'Set aside, not logged: the server failed on it 4 times (Something went wrong on our side. Please try again.)',
      );
      expect(failed).toBe(4);
      expect(await page.getByTestId('outbox-status').innerText()).toMatch(/1 item waiting to sync · 1 needs attention/);
      // Set aside, it is tried no more by itself.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(failed).toBe(4);
      await row.scrollIntoViewIfNeeded();
      await stack.screenshot(page, `outbox-set-aside-${label}`);

      // The server is fixed: Retry sends it, with its key, once.
      await page.unroute('**/api/mail-items');
      await row.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(async () => (await onServer(page, prefix)).length, { timeout: 15_000 }).toBe(2);
      await expect.poll(() => page.getByTestId('outbox-status').count()).toBe(0);
      await context.close();
    });
  }

  it('sends an item once when the answer to its first request was lost', async () => {
    const { context, page } = await stack.newPage();
    await stack.signInAsDemo(page);
    await api(page, 'POST', '/api/recipients', { firstName: 'Lost', lastName: 'Answer' });
    await page.getByRole('link', { name: 'Mail Intake' }).first().click();
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    // The server receives the first intake and writes it; its answer never reaches the page.
    let cut = 0;
    await page.route('**/api/mail-items', async (route) => {
      if (route.request().method() !== 'POST' || cut > 0) return route.fallback();
      cut += 1;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await logPackage(page, 'LOSTANSWER-1', 'Lost Answer');
    // Kept and sent again with the same key: the server answers its first answer.
    await expect.poll(async () => (await onServer(page, 'LOSTANSWER')).length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('outbox-status').count(), { timeout: 15_000 }).toBe(0);
    expect(cut).toBe(1);
    expect(await onServer(page, 'LOSTANSWER')).toHaveLength(1);

    // An item logged offline and discarded by the clerk (after a confirmation) is never sent.
    await context.setOffline(true);
    await logPackage(page, 'LOSTANSWER-2', 'Lost Answer');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByTestId('outbox-count').innerText()).toBe('1');
    await page.getByTestId('waiting-row').getByRole('button', { name: 'Discard' }).click();
    const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Discard this item?' }));
    await confirm.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => page.getByTestId('waiting-row').count()).toBe(0);
    await context.setOffline(false);
    await expect.poll(() => page.getByTestId('outbox-status').count()).toBe(0);
    expect(await onServer(page, 'LOSTANSWER')).toHaveLength(1);
    await context.close();
  });

  it('installs a service worker that serves the app shell offline and never caches the API', async () => {
    const { context, page } = await stack.newPage();
    await stack.signInAsDemo(page);
    await expect
      .poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.active)), {
        timeout: 15_000,
      })
      .toBe(true);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain('/');
    expect(cached.some((u) => u.startsWith('/assets/') && u.endsWith('.js'))).toBe(true);
    expect(cached.filter((u) => u.startsWith('/api'))).toEqual([]);
    const manifest = await page.evaluate(async () => (await fetch('/manifest.webmanifest')).json());
    expect(manifest).toMatchObject({ name: 'Pigeonhole', display: 'standalone' });

    // With the network gone, a reload gets the app's own page and scripts from the worker, not the
    // browser's offline error (what it then shows: the next test).
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.locator('#root').innerHTML()).not.toBe('');
    expect(await page.title()).toMatch(/Pigeonhole/);
    await stack.screenshot(page, 'offline-intake-reload-offline');
    await context.close();
  });
  it('opens the desk on a reload without a network, logs offline, sends once; never after sign-out', async () => {
    const { context, page } = await stack.newPage({ width: 1280, height: 800 });
    await stack.signInAsDemo(page);
    await api(page, 'POST', '/api/recipients', { firstName: 'Reload', lastName: 'Offline' });
    await expect
      .poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.active)), {
        timeout: 15_000,
      })
      .toBe(true);
    await page.getByRole('link', { name: 'Mail Intake' }).first().click();
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    await expect.poll(() => page.getByLabel('Tracking Number').isVisible()).toBe(true);

    // One item waits, then the page is reloaded with the network still gone.
    await context.setOffline(true);
    await logPackage(page, 'RELOADOFF-1', 'Reload Offline');
    await expect.poll(() => page.getByText(/saved on this device, waiting to sync/).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByTestId('outbox-count').innerText()).toBe('1');
    await page.reload();

    // The desk, not a spinner: Mail Intake with its waiting item, the count and "Offline".
    await expect
      .poll(() => page.getByRole('heading', { name: 'Mail Intake' }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    await expect.poll(() => page.getByTestId('outbox-count').innerText()).toBe('1');
    await expect.poll(() => page.getByTestId('waiting-row').count()).toBe(1);
    expect(await page.getByTestId('waiting-row').innerText()).toContain('RELOADOFF-1');
    expect(await page.getByTestId('outbox-status').innerText()).toMatch(/Offline/);
    await stack.screenshot(page, 'offline-reload-desk-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await stack.screenshot(page, 'offline-reload-desk-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Log Mail works after the reload: no recipients were loaded, the dialog says so, and the
    // item is logged without one (decision 041) into the outbox.
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    await page.getByLabel('Tracking Number').fill('RELOADOFF-2');
    await page.getByRole('combobox', { name: 'Recipient' }).fill('Reload');
    await expect.poll(() => page.getByTestId('recipients-offline').isVisible()).toBe(true);
    expect(await page.getByRole('listbox', { name: 'Recipients' }).innerText()).toMatch(/Recipients need the network/);
    await stack.screenshot(page, 'offline-reload-log-mail-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await stack.screenshot(page, 'offline-reload-log-mail-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Log without recipient' }).click();
    await expect.poll(() => page.getByText(/saved on this device, waiting to sync/).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByTestId('outbox-count').innerText()).toBe('2');

    // Back online: the session is checked for real, both are sent, each once.
    await context.setOffline(false);
    await expect.poll(() => page.getByTestId('outbox-status').count(), { timeout: 20_000 }).toBe(0);
    // each once (the search lists the one without a recipient too)
    expect((await onServer(page, 'RELOADOFF')).map((i) => i.trackingNumber).sort()).toEqual([
      'RELOADOFF-1',
      'RELOADOFF-2',
    ]);
    const unmatched = await api<{ trackingNumber: string | null }[]>(page, 'GET', '/api/mail-items/needs-recipient');
    expect(unmatched.filter((i) => i.trackingNumber?.startsWith('RELOADOFF')).map((i) => i.trackingNumber)).toEqual([
      'RELOADOFF-2',
    ]);
    expect(await page.getByRole('heading', { name: 'Mail Intake' }).isVisible()).toBe(true);

    // After sign-out, a reload without a network opens nobody's desk.
    await page.getByRole('button', { name: 'Logout' }).first().click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => localStorage.getItem('pigeonhole.offlineSession'))).toBeNull();
    await context.setOffline(true);
    await page.goto(`${new URL(page.url()).origin}/mail-intake`);
    await expect.poll(() => page.locator('#root').innerHTML(), { timeout: 15_000 }).not.toBe('');
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).not.toBe('/mail-intake');
    // the sign-in form (its chunk from the worker's cache), not the previous person's desk
    await expect.poll(() => page.getByRole('button', { name: 'Sign In' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByRole('heading', { name: 'Mail Intake' }).count()).toBe(0);
    expect(await page.getByTestId('outbox-status').count()).toBe(0);
    await stack.screenshot(page, 'offline-reload-signed-out');
    await context.close();
  });
  it('checks the session for real when the network returns after an offline start (a 401 signs out)', async () => {
    const { context, page } = await stack.newPage();
    await stack.signInAsDemo(page);
    await expect
      .poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.active)), {
        timeout: 15_000,
      })
      .toBe(true);
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.getByTestId('outbox-status').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByRole('heading', { name: 'Dashboard' }).isVisible()).toBe(true);
    // The session ended meanwhile (its cookie gone): back online, the server's 401 decides.
    await context.clearCookies();
    await context.setOffline(false);
    // (signed out, the dashboard's address leads to the landing page)
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('pigeonhole.offlineSession')), { timeout: 15_000 })
      .toBeNull();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('heading', { name: 'Dashboard' }).count()).toBe(0);
    expect(await page.getByTestId('outbox-status').count()).toBe(0);
    await context.close();
  });
});
