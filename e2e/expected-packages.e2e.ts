import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/page-api';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

/**
 * The desk's side of expected packages (decision 033). Until the recipient's page is merged, the
 * recipient's registration is written as the portal's service writes it (the number as typed,
 * its key without spaces or dashes).
 */
describe('an expected package at the desk', () => {
  it('the scan of a number a recipient registered fills them in, with an Expected by chip and an Expected badge', async () => {
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
      const organizationId = await page.evaluate(() => localStorage.getItem('selectedOrganizationId'));
      // As typed on the recipient's page: in groups, lower case.
      const typed = tracking.toLowerCase().replace(/(.{4})/g, '$1 ');
      await stack.sql(
        `insert into expected_packages (organization_id, recipient_id, tracking_number, match_key, label)
         values ($1, $2, $3, $4, 'Winter boots')`,
        [organizationId, recipient.id, typed, tracking],
      );

      await page.getByRole('link', { name: 'Mail Intake' }).first().click();
      await expect.poll(() => page.getByRole('heading', { name: 'Mail Intake' }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Log New Mail' }).click();
      await expect
        .poll(() => page.evaluate(() => document.activeElement === document.querySelector('input[data-autofocus]')))
        .toBe(true);
      // A USB scanner types the code and presses Enter.
      await page.keyboard.type(tracking);
      await page.keyboard.press('Enter');
      const chip = page.getByRole('status').filter({ hasText: 'Expected by' });
      await expect.poll(() => chip.isVisible()).toBe(true);
      expect(await chip.innerText()).toContain(`Expected by Nora ${lastName} (7C)`);
      await expect
        .poll(() => page.getByRole('combobox', { name: 'Recipient' }).inputValue())
        .toContain(`Nora ${lastName}`);
      await stack.screenshot(page, `expected-log-mail-${label}`);

      // No typing: the next Enter logs it.
      await page.getByRole('button', { name: 'Log Mail' }).click();
      await expect.poll(() => page.getByText(`Logged for Nora ${lastName}`).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Cancel' }).click();

      const [row] = await stack.sql(
        `select i.recipient_id, i.expected_package_id is not null as expected, e.matched_at is not null as matched
         from mail_items i join expected_packages e on e.id = i.expected_package_id where i.tracking_number = $1
           and i.organization_id = $2`,
        [tracking, organizationId],
      );
      expect(row).toEqual({ recipient_id: recipient.id, expected: true, matched: true });

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
});
