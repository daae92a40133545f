import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startStack, type Stack } from './support/stack';
import { completeHandOver } from './support/page-api';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

const login = (page: Page) => stack.signInAsDemo(page);

const visible = (page: Page, text: string) => () => page.getByText(text, { exact: true }).first().isVisible();

const CSV = [
  'first name,last name,email,phone,unit,department,type',
  'Katherine,Johnson,katherine.johnson@example.com,,12A,,resident',
  ',Nobody,not-an-email,,,,resident',
  'Dorothy,Vaughan,dorothy.vaughan@example.com,,,Computing,employee',
].join('\n');

describe('an admin setting up the front desk', () => {
  it('adds a mailroom and a shelf, manages recipients, imports a CSV, edits customization, then logs and hands over a package on the new shelf', async () => {
    const { context, page } = await stack.newPage();
    await login(page);

    // Settings > Mailrooms: a new mailroom with a two-item shelf.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Mailrooms' }).click();
    await page.getByRole('button', { name: 'Add Mailroom' }).click();
    await page.getByRole('button', { name: 'Save Mailroom' }).click();
    await expect.poll(visible(page, 'Mailroom name is required')).toBe(true);
    await page.getByLabel('Mailroom Name').fill('Annex');
    await page.getByLabel('Description').fill('Loading dock, east side');
    await page.getByRole('button', { name: 'Save Mailroom' }).click();
    const annex = page.getByRole('region', { name: 'Annex' });
    await expect.poll(() => annex.isVisible()).toBe(true);
    await expect.poll(() => annex.getByText('No storage locations yet', { exact: false }).isVisible()).toBe(true);

    await annex.getByRole('button', { name: 'Add Location' }).click();
    await page.getByLabel('Location Name').fill('Shelf Z');
    await page.getByLabel('Location Type').click();
    await page.getByRole('option', { name: 'Shelf' }).click();
    await page.getByLabel('Capacity').fill('2');
    expect(await page.getByLabel('Mailroom', { exact: true }).innerText()).toContain('Annex');
    await page.getByRole('button', { name: 'Save Location' }).click();
    await expect.poll(() => annex.getByText('Shelf Z', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => annex.getByText('0 / 2').isVisible()).toBe(true);

    // A location that still holds mail cannot be deleted (the seeded Shelf A holds two items).
    const lobby = page.getByRole('region', { name: 'Lobby Mailroom' });
    await lobby.getByRole('button', { name: 'Delete Shelf A' }).click();
    await page.getByRole('button', { name: 'Delete location' }).click();
    await expect.poll(visible(page, 'Cannot delete storage location')).toBe(true);
    await stack.screenshot(page, 'settings-mailrooms');

    // Recipients: add one through the dialog.
    await page.getByRole('link', { name: 'Recipients' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Recipients' }).isVisible()).toBe(true);
    const total = page.getByRole('group', { name: 'Total Recipients' }).locator('[data-stat-value]');
    await expect.poll(() => total.innerText()).toBe('8');
    await page.getByRole('button', { name: 'Add Recipient' }).click();
    await page.getByLabel('First Name').fill('Grace');
    await page.getByLabel('Last Name').fill('Hopper');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Save Recipient' }).click();
    await expect.poll(visible(page, 'Invalid email format')).toBe(true);
    await page.getByLabel('Email').fill('Grace.Hopper@Example.com');
    await page.getByLabel('Phone').fill('+1 503 555 0190');
    await page.getByLabel('Unit').fill('9F');
    await page.getByLabel('Department').fill('Engineering');
    await page.getByLabel('Recipient Type').click();
    await page.getByRole('option', { name: 'Employee' }).click();
    await page.getByRole('button', { name: 'Save Recipient' }).click();
    await expect.poll(visible(page, 'Recipient added')).toBe(true);
    await expect.poll(() => total.innerText()).toBe('9');

    // Search finds them (and only them); then they are deactivated.
    await page.getByLabel('Search recipients').fill('hopper');
    const row = page.getByRole('row', { name: /Grace Hopper/ });
    await expect.poll(() => row.isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('row', { name: /Daniel Cohen/ }).count()).toBe(0);
    await expect.poll(() => page.getByText(/Showing\s+1–1\s+of\s+1/).isVisible()).toBe(true);
    expect(await row.innerText()).toContain('grace.hopper@example.com');
    await row.getByRole('button', { name: 'Deactivate Grace Hopper' }).click();
    await expect.poll(visible(page, 'Recipient deactivated')).toBe(true);
    await expect.poll(() => row.getByText('Inactive', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => row.getByRole('button', { name: 'Activate Grace Hopper' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('group', { name: 'Total Recipients' }).innerText()).toMatch(/8\s*active/);

    await page.getByLabel('Search recipients').fill('nobody-matches-this');
    await expect.poll(visible(page, 'No recipients match "nobody-matches-this"')).toBe(true);
    await page.getByRole('button', { name: 'Clear search' }).first().click();

    // CSV import: three rows, one invalid; the preview names the problems before anything is saved.
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await page.getByLabel('Or paste CSV').fill(CSV);
    await page.getByRole('button', { name: 'Preview import' }).click();
    await expect.poll(visible(page, 'First name is required')).toBe(true);
    await expect.poll(visible(page, 'Invalid email format')).toBe(true);
    const summary = page.getByRole('list', { name: 'Import summary' });
    expect(await summary.innerText()).toMatch(/3\s*rows/);
    expect(await summary.innerText()).toMatch(/1\s*with errors/);
    await stack.screenshot(page, 'recipients-import-preview');
    await page.getByRole('button', { name: 'Import 2 recipients' }).click();
    await expect.poll(visible(page, 'Imported 2 recipients')).toBe(true);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => total.innerText()).toBe('11');
    await page.getByLabel('Search recipients').fill('vaughan');
    const dorothy = page.getByRole('row', { name: /Dorothy Vaughan/ });
    await expect.poll(() => dorothy.isVisible()).toBe(true);

    // Edit keeps the other fields; delete asks first.
    await dorothy.getByRole('button', { name: 'Edit Dorothy Vaughan' }).click();
    expect(await page.getByLabel('Email').inputValue()).toBe('dorothy.vaughan@example.com');
    await page.getByLabel('Unit').fill('3C');
    await page.getByRole('button', { name: 'Save Recipient' }).click();
    await expect.poll(visible(page, 'Recipient updated')).toBe(true);
    await expect.poll(() => dorothy.getByText('3C', { exact: true }).isVisible()).toBe(true);
    await dorothy.getByRole('button', { name: 'Delete Dorothy Vaughan' }).click();
    await page.getByRole('button', { name: 'Delete recipient' }).click();
    await expect.poll(visible(page, 'Recipient deleted')).toBe(true);
    await expect.poll(() => total.innerText()).toBe('10');
    await page.getByLabel('Search recipients').fill('');
    await stack.screenshot(page, 'recipients');

    // Customization: a duplicate value is refused, a new one is kept.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Customization' }).click();
    const couriers = page.getByRole('region', { name: 'Courier Companies' });
    await couriers.getByLabel('New courier company').fill('  ups ');
    await couriers.getByRole('button', { name: 'Add' }).click();
    await expect.poll(visible(page, 'Value already exists')).toBe(true);
    await expect.poll(visible(page, '"ups" is already in the list')).toBe(true);
    await couriers.getByLabel('New courier company').fill('OnTrac');
    await couriers.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => couriers.getByText('OnTrac', { exact: true }).isVisible()).toBe(true);
    // core statuses have no remove button
    const statuses = page.getByRole('region', { name: 'Statuses' });
    expect(await statuses.getByRole('button', { name: /Remove pending/ }).count()).toBe(0);
    expect(await statuses.getByRole('button', { name: 'Remove Returned from Statuses' }).count()).toBe(1);
    await page.reload();
    await page.getByRole('tab', { name: 'Customization' }).click();
    await expect.poll(() => couriers.getByText('OnTrac', { exact: true }).isVisible()).toBe(true);
    await stack.screenshot(page, 'settings-customization');

    // The auto-notify preference is here too, and is the one the Notifications tab shows.
    const autoNotify = page.getByRole('switch', { name: 'Notify recipients automatically' });
    expect(await autoNotify.getAttribute('aria-checked')).toBe('true');
    await autoNotify.click();
    await expect.poll(visible(page, 'Notify recipients automatically: off.')).toBe(true);
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await expect
      .poll(() => page.getByRole('switch', { name: 'Notify recipients automatically' }).getAttribute('aria-checked'))
      .toBe('false');

    // What was set up is used at once: a package for an imported recipient onto the new shelf.
    await page.getByRole('link', { name: 'Mail Intake' }).click();
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    await page.keyboard.type('1Z999AA10123456784');
    await expect.poll(() => page.getByLabel('Courier Company').innerText()).toBe('UPS');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Kath');
    await expect.poll(() => page.getByRole('option', { name: /Katherine Johnson/ }).isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByLabel('Storage Location').click();
    await page.getByRole('option', { name: /^Shelf Z/ }).click();
    await page.getByRole('button', { name: 'Log Mail' }).click();
    await expect.poll(() => page.getByText('Logged for Katherine Johnson — 1 this session').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Mailrooms' }).click();
    await expect.poll(() => annex.getByText('1 / 2').isVisible()).toBe(true);

    // Handed over from Pending Pickups: it leaves the shelf.
    await page.getByRole('link', { name: 'Pending Pickups' }).click();
    const pendingRow = page.getByRole('row').filter({ hasText: 'Katherine Johnson' });
    await expect.poll(() => pendingRow.isVisible()).toBe(true);
    await pendingRow.getByRole('button', { name: /^Delivered/ }).click();
    // The one hand-over (decision 053).
    await completeHandOver(page, 'Katherine Johnson');
    await expect.poll(() => pendingRow.count()).toBe(0);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Mailrooms' }).click();
    await expect.poll(() => annex.getByText('0 / 2').isVisible()).toBe(true);
    await context.close();
  });

  it('at phone width the recipients become stacked cards without sideways scrolling', async () => {
    const { context, page } = await stack.newPage({ width: 390, height: 844 });
    await login(page);
    await page.getByRole('link', { name: 'Recipients' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit Daniel Cohen' }).isVisible()).toBe(true);
    expect(await page.getByRole('table').isVisible()).toBe(false);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await stack.screenshot(page, 'recipients-phone');
    await context.close();
  });
});

describe('an admin answering a recipient who asks for their personal data', () => {
  it('downloads it, then erases it behind a typed confirmation: the name is gone, the waiting letter stays', async () => {
    const { context, page } = await stack.newPage();
    await login(page);
    await page.getByRole('link', { name: 'Recipients' }).click();
    await page.getByLabel('Search recipients').fill('rossi');
    const row = page.getByRole('row', { name: /Sofia Rossi/ });
    await expect.poll(() => row.isVisible()).toBe(true);

    // A copy first: everything held about her as a JSON file.
    await row.getByRole('button', { name: 'More actions for Sofia Rossi' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Download personal data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^recipient-[0-9a-f-]{36}-personal-data\.json$/);
    const data = JSON.parse(await fs.readFile((await download.path())!, 'utf8'));
    expect(data.recipient).toMatchObject({ firstName: 'Sofia', lastName: 'Rossi', email: 'sofia.rossi@example.com' });
    expect(data.mailItems).toHaveLength(1);
    expect(data.mailItems[0]).toMatchObject({ sender: 'City of Portland', status: 'pending' });
    await expect.poll(visible(page, 'Personal data downloaded')).toBe(true);

    // Then the erasure: the dialog says what happens, and the button waits for her name.
    await row.getByRole('button', { name: 'More actions for Sofia Rossi' }).click();
    await page.getByRole('menuitem', { name: 'Erase personal data…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Erase personal data' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.innerText()).toContain('Photos of their mail items are deleted.');
    expect(await dialog.innerText()).toContain('Delivery history is kept.');
    const confirm = dialog.getByRole('button', { name: 'Erase personal data' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type Sofia Rossi to confirm').fill('Sofia');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type Sofia Rossi to confirm').fill('sofia  rossi');
    await expect.poll(() => confirm.isEnabled()).toBe(true);
    await stack.screenshot(page, 'recipients-erase-dialog');
    await confirm.click();
    await expect.poll(visible(page, 'Personal data erased')).toBe(true);
    await expect.poll(() => dialog.count()).toBe(0);

    // Her name finds nothing any more; the record stays, anonymised and inactive.
    await expect.poll(visible(page, 'No recipients match "rossi"')).toBe(true);
    await page.getByLabel('Search recipients').fill('erased');
    const erased = page.getByRole('row', { name: /Erased recipient/ });
    await expect.poll(() => erased.isVisible()).toBe(true);
    expect(await erased.innerText()).toContain('Inactive');
    expect(await erased.innerText()).toContain('No contact details');

    // Her letter is still waiting on its shelf, under the stand-in name.
    await page.getByRole('link', { name: 'Pending Pickups' }).click();
    const letter = page.getByRole('row').filter({ hasText: 'City of Portland' });
    await expect.poll(() => letter.isVisible()).toBe(true);
    expect(await letter.innerText()).toContain('Erased recipient');
    expect(await page.getByRole('table').getByText('Sofia Rossi').count()).toBe(0);
    await context.close();
  });
});
