import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/page-api';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

const labelPhoto = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: '#c8a070' } })
    .png()
    .toBuffer();

/** Decision 041: a package whose label names nobody the desk can find. */
describe('an item that needs a recipient', () => {
  it('is logged without one, waits in its list with its photo, and once resolved its recipient gets the email', async () => {
    for (const [label, viewport, colorScheme, tracking] of [
      ['desktop-light', { width: 1280, height: 800 }, 'light', '1Z999AA10123456784'],
      ['phone-dark', { width: 390, height: 844 }, 'dark', '9400111899223197428490'],
    ] as const) {
      const { context, page } = await stack.newPage(viewport, { colorScheme });
      await stack.signInAsDemo(page);
      const lastName = `Unlabelled ${label}`;
      const email = `ines.${label}@example.com`;
      await api(page, 'POST', '/api/recipients', { firstName: 'Ines', lastName, email, unit: '12B' });

      await page.getByRole('link', { name: 'Mail Intake' }).first().click();
      await expect.poll(() => page.getByRole('heading', { name: 'Mail Intake' }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Log New Mail' }).click();
      await page.getByLabel('Tracking Number').fill(tracking);
      await page.getByLabel('Choose a photo').setInputFiles({
        name: 'label.png',
        mimeType: 'image/png',
        buffer: await labelPhoto(),
      });
      await expect.poll(() => page.getByRole('img', { name: 'Package photo preview' }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Log without recipient' }).click();
      await expect.poll(() => page.getByText('Logged for no recipient yet').isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Cancel' }).click();

      // The sidebar counts it; its list shows the thumbnail (by URL), the number and who logged it.
      const nav = page.getByRole('link', { name: 'Needs a recipient' }).first();
      await expect.poll(() => nav.innerText()).toMatch(/1/);
      await nav.click();
      await expect.poll(() => page.getByRole('heading', { name: 'Needs a recipient' }).isVisible()).toBe(true);
      const row = page.getByRole('listitem').filter({ hasText: tracking });
      await expect.poll(() => row.isVisible()).toBe(true);
      expect(await row.innerText()).toMatch(/Logged .* by /);
      const thumbnail = await row.locator('img').getAttribute('src');
      expect(thumbnail).toMatch(/^\/api\/photos\/[0-9a-f-]+\/thumbnail$/);
      await expect
        .poll(() => row.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      await stack.screenshot(page, `needs-recipient-list-${label}`);

      // Resolve: pick the recipient by typing, and they are notified.
      await row.getByRole('button', { name: /Choose recipient/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Choose the recipient' });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await dialog.getByRole('combobox', { name: 'Recipient' }).fill(lastName);
      await expect.poll(() => page.getByRole('option', { name: new RegExp(lastName) }).isVisible()).toBe(true);
      await page.keyboard.press('Enter');
      await stack.screenshot(page, `needs-recipient-resolve-${label}`);
      await dialog.getByRole('button', { name: 'Assign and notify' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(false);
      await expect.poll(() => row.count()).toBe(0);
      await expect.poll(() => page.getByText('Every item has its recipient').isVisible()).toBe(true);

      const mail = await stack.smtp.waitFor(email, { timeoutMs: 15_000 });
      expect(mail.text).toContain(tracking);

      // It is now an ordinary item waiting for Ines in Pending Pickups.
      await page.getByRole('link', { name: 'Pending Pickups' }).first().click();
      await expect
        .poll(() => page.getByText(`Ines ${lastName}`).filter({ visible: true }).first().isVisible())
        .toBe(true);
      await context.close();
    }
  });

  it('a parcel two recipients expect is logged without one (was a 500), both are offered, the desk chooses', async () => {
    const tracking = '1Z999AA10123456784';
    const { context, page } = await stack.newPage({ width: 1280, height: 800 });
    await stack.signInAsDemo(page);
    const organizationId = (await page.evaluate(() => localStorage.getItem('selectedOrganizationId')))!;
    const make = (firstName: string, email: string) =>
      api<{ id: string }>(page, 'POST', '/api/recipients', { firstName, lastName: 'Expects', email });
    const rosa = await make('Rosa', 'rosa.expects@example.com');
    const sami = await make('Sami', 'sami.expects@example.com');
    for (const r of [rosa, sami]) {
      await stack.sql(
        `insert into expected_packages (organization_id, recipient_id, tracking_number, match_key)
         values ($1, $2, $3, $3)`,
        [organizationId, r.id, tracking],
      );
    }
    await page.getByRole('link', { name: 'Mail Intake' }).first().click();
    await expect.poll(() => page.getByRole('heading', { name: 'Mail Intake' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    await page.getByLabel('Tracking Number').fill(tracking);
    await expect.poll(() => page.getByTestId('expected-notice').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Log without recipient' }).click();
    await expect.poll(() => page.getByText('Logged for no recipient yet').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('link', { name: 'Needs a recipient' }).first().click();
    const row = page.getByRole('listitem').filter({ hasText: tracking }).filter({ hasText: 'Rosa Expects' });
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.innerText()).toContain('Expected by Rosa Expects, Sami Expects');
    await row.getByRole('button', { name: /Choose recipient/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose the recipient' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const offer = dialog.getByTestId('expected-offer');
    expect(await offer.innerText()).toContain('Expected by 2 recipients: choose the one it is for');
    // Neither is chosen by itself.
    expect(await dialog.getByRole('combobox', { name: 'Recipient' }).inputValue()).toBe('');
    await stack.screenshot(page, 'needs-recipient-two-expecters-desktop-light');
    await offer.getByRole('button', { name: 'Sami Expects' }).click();
    await expect.poll(() => dialog.getByRole('combobox', { name: 'Recipient' }).inputValue()).toBe('Sami Expects');
    await dialog.getByRole('button', { name: 'Assign and notify' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    const mail = await stack.smtp.waitFor('sami.expects@example.com', { timeoutMs: 15_000 });
    expect(mail.subject).toContain('The package you expected has arrived');
    const [item] = await stack.sql(
      `select i.recipient_id, e.recipient_id as expecter, h.notes from mail_items i
       join expected_packages e on e.id = i.expected_package_id
       join mail_item_history h on h.mail_item_id = i.id and h.action = 'recipient_assigned'
       where i.tracking_number = $1 and i.organization_id = $2`,
      [tracking, organizationId],
    );
    expect(item).toEqual({
      recipient_id: sami.id,
      expecter: sami.id,
      notes: 'Recipient: Sami Expects (from an expected package: they registered this tracking number)',
    });
    await context.close();
  });
});
