import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** A new account through /register, with an organization when named; answers the account. */
async function register(page: Page, prefix: string, organization?: string) {
  const account = uniqueAccount(prefix);
  await registerThroughUi(page, account, organization);
  return account;
}

async function dismissToasts(page: Page) {
  const close = page.getByRole('region', { name: /notifications/i }).getByRole('button', { name: 'Close' });
  for (const button of await close.all()) await button.click().catch(() => undefined);
}

async function shootBoth(page: Page, name: string) {
  await dismissToasts(page);
  await page.setViewportSize(DESKTOP);
  await stack.screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await stack.screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/** Reloads until the user menu offers the console, then opens it. */
async function openConsoleFromUserMenu(page: Page) {
  const link = page.getByRole('link', { name: 'Super Admin' });
  await expect
    .poll(
      async () => {
        await page.reload();
        await page.getByRole('button', { name: 'Logout' }).first().waitFor();
        return link.count();
      },
      { timeout: 10_000, interval: 500 },
    )
    .toBeGreaterThan(0);
  await link.first().click();
}

const visible = (page: Page, text: string) => page.getByText(text, { exact: true }).first().isVisible();

describe('the super admin console', () => {
  it('finds an organization, changes its plan, and grants the flag to another user who then opens it', async () => {
    const tag = Date.now().toString(36);
    const orgName = `Harbor Lofts ${tag}`;

    // Kim runs an organization; Rosa operates the platform (and belongs to none).
    const kim = await stack.newPage(DESKTOP);
    const kimAccount = await register(kim.page, 'kim', orgName);
    const rosa = await stack.newPage(DESKTOP);
    const rosaAccount = await register(rosa.page, 'rosa');
    await stack.sql('update users set is_super_admin = true where email = $1', [rosaAccount.email]);

    // Rosa finds the console in her user menu (the flag set in the database shows once this
    // instance's session cache, CACHE_TTL_MS, lets go of her session).
    await openConsoleFromUserMenu(rosa.page);
    await expect.poll(() => rosa.page.getByRole('heading', { name: 'Super Admin Dashboard' }).isVisible()).toBe(true);
    expect(await visible(rosa.page, 'Super Admin Access')).toBe(true);
    const figures = rosa.page.getByRole('list', { name: 'Platform figures' });
    for (const label of ['Organizations', 'Total Users', 'Active Trials', 'Paid Subs', 'Packages/Month', 'Revenue']) {
      expect(await figures.getByText(label, { exact: true }).isVisible(), label).toBe(true);
    }

    // Search narrows the organizations on the server; nothing found is said so.
    const search = rosa.page.getByPlaceholder('Search organizations, users, or domains...');
    await search.fill(`nowhere ${tag}`);
    await expect.poll(() => visible(rosa.page, `No organizations match "nowhere ${tag}"`)).toBe(true);
    await search.fill(`harbor lofts ${tag}`);
    const table = rosa.page.getByRole('table', { name: 'Organizations' });
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    // the search is in the address, like History's filters
    expect(new URL(rosa.page.url()).searchParams.get('q')).toBe(`harbor lofts ${tag}`);
    const row = table.getByRole('row').nth(1);
    expect(await row.getByRole('cell').allInnerTexts()).toEqual(
      expect.arrayContaining([orgName, 'N/A', 'Trial', '1', '0']),
    );
    await shootBoth(rosa.page, 'super-admin-organizations');

    // 25 a page: thirty more organizations, found by one search, page through; the page is in the address.
    await stack.sql(
      "insert into organizations (name) select 'Pager ' || $1::text || ' ' || lpad(n::text, 2, '0') from generate_series(1, 30) n",
      [tag],
    );
    await search.fill(`pager ${tag}`);
    const pager = rosa.page.getByRole('navigation', { name: 'Organizations pages' });
    await expect.poll(() => pager.getByText('1–25 of 30').isVisible()).toBe(true);
    // The pager's words follow the page at once; the rows may still be the last page's for a moment.
    await expect.poll(() => table.getByRole('row').count()).toBe(26);
    await pager.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => pager.getByText('26–30 of 30').isVisible()).toBe(true);
    await expect.poll(() => table.getByRole('row').count()).toBe(6);
    expect(new URL(rosa.page.url()).searchParams.get('page')).toBe('2');
    // a new search starts again on the first page
    await search.fill(`harbor lofts ${tag}`);
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(new URL(rosa.page.url()).searchParams.get('page')).toBeNull();

    // Manage: the plan changes, with its limits, and the table follows.
    await row.getByRole('button', { name: `Manage ${orgName}` }).click();
    const dialog = rosa.page.getByRole('dialog', { name: `Manage ${orgName}` });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByText('Trial ends', { exact: true }).isVisible()).toBe(true);
    expect(await dialog.getByText(/^[A-Z][a-z]+ \d{1,2}(st|nd|rd|th), \d{4}$/).count()).toBeGreaterThan(0);
    await shootBoth(rosa.page, 'super-admin-manage-organization');
    await dialog.getByLabel('Plan Type').click();
    await rosa.page.getByRole('option', { name: 'Professional' }).click();
    await expect.poll(() => visible(rosa.page, 'Organization updated successfully')).toBe(true);
    // Professional keeps the 5 seats (within 1 to 10) and lifts the package limit.
    await expect.poll(() => dialog.getByText('0 of unlimited', { exact: true }).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => row.getByRole('cell', { name: 'Professional', exact: true }).isVisible()).toBe(true);

    // The server applied the plan's limits.
    const rows = await stack.sql('select plan_type, max_users from organizations where name = $1', [orgName]);
    expect(rows[0]).toEqual({ plan_type: 'professional', max_users: 5 });

    // Users: grant the flag to Kim.
    await rosa.page.getByRole('tab', { name: 'Users' }).click();
    await search.fill(kimAccount.email);
    const users = rosa.page.getByRole('table', { name: 'Users' });
    await expect.poll(() => users.getByRole('row').count()).toBe(2);
    expect(await users.getByRole('row').nth(1).getByText('Regular User').isVisible()).toBe(true);
    expect(await users.getByRole('row').nth(1).getByText(orgName).isVisible()).toBe(true);
    await shootBoth(rosa.page, 'super-admin-users');
    await users.getByRole('button', { name: `Manage ${kimAccount.email}` }).click();
    const userDialog = rosa.page.getByRole('dialog');
    await userDialog.getByLabel('Grant Super Admin Access').check();
    await expect.poll(() => visible(rosa.page, 'User updated successfully')).toBe(true);
    await expect
      .poll(() =>
        userDialog
          .getByText('This user has full system access and can manage all organizations and users.')
          .isVisible(),
      )
      .toBe(true);
    await shootBoth(rosa.page, 'super-admin-manage-user');
    await userDialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => users.getByRole('row').nth(1).getByText('Super Admin').isVisible()).toBe(true);

    // The tab and the search survive a reload.
    expect(new URL(rosa.page.url()).searchParams.get('tab')).toBe('users');
    await rosa.page.reload();
    await expect.poll(() => users.getByRole('row').count()).toBe(2);
    expect(await search.inputValue()).toBe(kimAccount.email);
    expect(await users.getByRole('row').nth(1).getByText('Super Admin').isVisible()).toBe(true);

    // Someone hammers a sign-in: the 11th failure in the window is refused and logged.
    const intruder = `intruder-${tag}@example.com`;
    for (let i = 0; i < 11; i++) {
      await rosa.page.request.post('/api/login', { data: { username: intruder, password: 'wrong-password' } });
    }

    // System Logs: both changes, newest first, by Rosa.
    await search.fill('');
    await rosa.page.getByRole('tab', { name: 'System Logs' }).click();
    const logs = rosa.page.getByRole('list', { name: 'System logs' });
    await expect.poll(() => logs.getByText(`granted super admin access to ${kimAccount.email}`).isVisible()).toBe(true);
    await expect
      .poll(() => logs.getByText(`changed the plan of ${orgName} from Trial to Professional`).isVisible())
      .toBe(true);
    await expect.poll(() => logs.getByText(`refused sign-ins to "${intruder}"`).isVisible()).toBe(true);
    // newest first: the refused sign-ins, then the grant, then the plan change
    const texts = await logs.getByRole('listitem').allInnerTexts();
    const at = (needle: string) => texts.findIndex((t) => t.includes(needle));
    expect(at(intruder)).toBeLessThan(at(`granted super admin access to ${kimAccount.email}`));
    expect(at(`granted super admin access to ${kimAccount.email}`)).toBeLessThan(at(`plan of ${orgName}`));
    await shootBoth(rosa.page, 'super-admin-logs');

    // The kind filter narrows the log, and is in the address too.
    await rosa.page.getByRole('combobox', { name: 'Kind of entry' }).click();
    await rosa.page.getByRole('option', { name: 'Sign-in failures' }).click();
    await expect.poll(() => logs.getByText(`granted super admin access to ${kimAccount.email}`).count()).toBe(0);
    expect(await logs.getByText(`refused sign-ins to "${intruder}"`).isVisible()).toBe(true);
    expect(new URL(rosa.page.url()).searchParams.get('kind')).toBe('sign_in');
    await search.fill(`nothing-${tag}`);
    await expect.poll(() => visible(rosa.page, `No log entries match "nothing-${tag}"`)).toBe(true);

    // Kim now finds the console in her own user menu.
    await openConsoleFromUserMenu(kim.page);
    await expect.poll(() => kim.page.getByRole('heading', { name: 'Super Admin Dashboard' }).isVisible()).toBe(true);
    await expect.poll(() => kim.page.getByRole('table', { name: 'Organizations' }).isVisible()).toBe(true);
    // inside her organization's shell, the user menu marks the console as the current page
    expect(await kim.page.getByRole('link', { name: 'Super Admin' }).getAttribute('aria-current')).toBe('page');
    await shootBoth(kim.page, 'super-admin-in-app-shell');

    await kim.context.close();
    await rosa.context.close();
  });

  it('is the 404 page for everyone else, and their calls are refused', async () => {
    const { context, page } = await stack.newPage(DESKTOP);
    await register(page, 'regular', `Regular Rooms ${Date.now().toString(36)}`);
    expect(await page.getByRole('link', { name: 'Super Admin' }).count()).toBe(0);
    await page.goto('/super-admin');
    await expect.poll(() => page.getByRole('heading', { name: '404 Page Not Found' }).isVisible()).toBe(true);
    expect((await page.request.get('/api/super-admin/stats')).status()).toBe(403);
    await context.close();
  });
});
