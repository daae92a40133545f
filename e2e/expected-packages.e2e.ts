import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/page-api';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

/** A recipient's registration, written as the portal's service writes it (the number as typed, its key). */
async function expect_(organizationId: string, recipientId: string, typed: string, key: string, label: string | null) {
  await stack.sql(
    `insert into expected_packages (organization_id, recipient_id, tracking_number, match_key, label)
     values ($1, $2, $3, $4, $5)`,
    [organizationId, recipientId, typed, key, label],
  );
}

/**
 * The desk's side of expected packages (decisions 033, 047): an expected number is offered, never
 * filled in, and never outranks the label or the clerk.
 */
describe('an expected package at the desk', () => {
  it('the scan of a number one recipient registered offers them; Enter, Enter chooses them, Enter logs it', async () => {
    for (const [label, viewport, colorScheme, tracking] of [
      ['desktop-light', { width: 1280, height: 800 }, 'light', '1Z999AA10123456784'],
      ['phone-dark', { width: 390, height: 844 }, 'dark', '449044304137821'],
    ] as const) {
      const { context, page } = await stack.newPage(viewport, { colorScheme });
      await stack.signInAsDemo(page);
      const lastName = `Expecting ${label}`;
      const recipient = await api<{ id: string; organizationId: string }>(page, 'POST', '/api/recipients', {
        firstName: 'Nora',
        lastName,
        unit: '7C',
      });
      const organizationId = (await page.evaluate(() => localStorage.getItem('selectedOrganizationId')))!;
      // As typed on the recipient's page: in groups, lower case.
      await expect_(
        organizationId,
        recipient.id,
        tracking.toLowerCase().replace(/(.{4})/g, '$1 '),
        tracking,
        'Winter boots',
      );

      await page.getByRole('link', { name: 'Mail Intake' }).first().click();
      await expect.poll(() => page.getByRole('heading', { name: 'Mail Intake' }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Log New Mail' }).click();
      await expect
        .poll(() => page.evaluate(() => document.activeElement === document.querySelector('input[data-autofocus]')))
        .toBe(true);
      // A USB scanner types the code and presses Enter (1).
      await page.keyboard.type(tracking);
      await page.keyboard.press('Enter');
      const notice = page.getByTestId('expected-notice');
      await expect.poll(() => notice.isVisible()).toBe(true);
      expect(await notice.innerText()).toContain(`Expected by Nora ${lastName} (7C)`);
      // Offered, not filled in: the clerk confirms by choosing.
      const recipientField = page.getByRole('combobox', { name: 'Recipient' });
      expect(await recipientField.inputValue()).toBe('');
      await stack.screenshot(page, `expected-log-mail-offered-${label}`);

      // Enter lists them first (2), Enter chooses (3), Enter logs (4).
      await page.keyboard.press('Enter');
      const option = page.getByRole('option', { name: new RegExp(`Nora ${lastName}.*Expects this tracking number`) });
      await expect.poll(() => option.isVisible()).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => recipientField.inputValue()).toContain(`Nora ${lastName}`);
      expect(await notice.innerText()).toContain(`Expected by Nora ${lastName} (7C) · Winter boots`);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByText(`Logged for Nora ${lastName}`).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Cancel' }).click();

      const row = async () =>
        (
          await stack.sql(
            `select i.recipient_id, i.expected_package_id is not null as expected, e.matched_at is not null as matched,
               h.notes
             from mail_items i join expected_packages e on e.id = i.expected_package_id
             join mail_item_history h on h.mail_item_id = i.id and h.action = 'created'
             where i.tracking_number = $1 and i.organization_id = $2`,
            [tracking, organizationId],
          )
        )[0];
      await expect.poll(row).toEqual({
        recipient_id: recipient.id,
        expected: true,
        matched: true,
        notes: 'Recipient from an expected package: they registered this tracking number',
      });

      await page
        .getByPlaceholder(/Search/)
        .first()
        .fill(lastName);
      const item = page.getByRole('listitem').filter({ hasText: `Nora ${lastName}` });
      await expect
        .poll(() => item.getByText('Expected', { exact: true }).filter({ visible: true }).first().isVisible())
        .toBe(true);
      await stack.screenshot(page, `expected-badge-${label}`);
      await context.close();
    }
  });

  it('two recipients expect one number: neither is filled in, both offered; the clerk’s pick stays, "also expected by" beside it', async () => {
    const tracking = '9400111899223197428490';
    const { context, page } = await stack.newPage({ width: 1280, height: 800 });
    await stack.signInAsDemo(page);
    const organizationId = (await page.evaluate(() => localStorage.getItem('selectedOrganizationId')))!;
    const make = (firstName: string, lastName: string, unit: string) =>
      api<{ id: string }>(page, 'POST', '/api/recipients', { firstName, lastName, unit });
    const nora = await make('Nora', 'Twice', '7C');
    const omar = await make('Omar', 'Twice', '9D');
    const pia = await make('Pia', 'Addressee', '2A');
    await expect_(organizationId, nora.id, tracking, tracking, null);
    await expect_(organizationId, omar.id, tracking, tracking, null);

    await page.getByRole('link', { name: 'Mail Intake' }).first().click();
    await expect.poll(() => page.getByRole('heading', { name: 'Mail Intake' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement === document.querySelector('input[data-autofocus]')))
      .toBe(true);
    await page.keyboard.type(tracking);
    await page.keyboard.press('Enter');
    const notice = page.getByTestId('expected-notice');
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await notice.innerText()).toContain('Expected by Nora Twice (7C), Omar Twice (9D)');
    expect(await notice.innerText()).toContain('not filled in: choose one');
    const recipientField = page.getByRole('combobox', { name: 'Recipient' });
    expect(await recipientField.inputValue()).toBe('');
    await stack.screenshot(page, 'expected-two-expecters-desktop-light');

    // The label says Pia: the clerk types three letters and Enter picks her (the six key presses).
    await page.keyboard.type('Pia');
    await expect.poll(() => page.getByRole('option', { name: /Pia Addressee/ }).isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => recipientField.inputValue()).toContain('Pia Addressee');
    await expect.poll(() => notice.innerText()).toContain('Also expected by Nora Twice (7C), Omar Twice (9D)');
    await stack.screenshot(page, 'expected-also-expected-by-desktop-light');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByText('Logged for Pia Addressee').isVisible()).toBe(true);

    const rows = () =>
      stack.sql(
        `select i.recipient_id, i.expected_package_id, h.notes,
           (select count(*)::int from expected_packages e where e.organization_id = i.organization_id
              and e.match_key = $1 and e.matched_at is null) as still_expected
         from mail_items i join mail_item_history h on h.mail_item_id = i.id and h.action = 'created'
         where i.tracking_number = $1 and i.organization_id = $2`,
        [tracking, organizationId],
      );
    await expect
      .poll(rows)
      .toEqual([
        { recipient_id: pia.id, expected_package_id: null, notes: 'Recipient chosen by the clerk', still_expected: 2 },
      ]);
    await context.close();
  });
});
