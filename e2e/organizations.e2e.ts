import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

const login = (page: Page) => stack.signInAsDemo(page);

/** The number shown on a dashboard stat card. */
async function cardValue(page: Page, title: string) {
  return (await page.getByRole('group', { name: title }).locator('[data-stat-value]').innerText()).trim();
}

describe('an admin with two organizations', () => {
  it('creates a second organization, switches between them, and the choice survives a reload', async () => {
    const { context, page } = await stack.newPage();
    await login(page);
    await expect.poll(() => cardValue(page, 'Active Recipients')).toBe('8');
    await expect.poll(() => page.getByText('Amazon').first().isVisible()).toBe(true);
    const first = await page.evaluate(() => localStorage.getItem('selectedOrganizationId'));

    await page.getByRole('button', { name: 'Select organization' }).click();
    await page.getByRole('menuitem', { name: /create organization/i }).click();
    await page.getByLabel('Organization Name').fill('Riverside Offices');
    await page.getByRole('button', { name: 'Create Organization' }).click();
    await expect
      .poll(() => page.getByText('Your organization has been created successfully.', { exact: true }).isVisible())
      .toBe(true);

    await page.getByRole('button', { name: 'Select organization' }).click();
    await page.getByRole('menuitem', { name: /Riverside Offices/ }).click();
    await expect.poll(() => cardValue(page, 'Active Recipients')).toBe('0');
    await expect.poll(() => page.getByText('No recent activity').isVisible()).toBe(true);
    const second = await page.evaluate(() => localStorage.getItem('selectedOrganizationId'));
    expect(second).not.toBe(first);

    await page.reload();
    await expect.poll(() => cardValue(page, 'Active Recipients')).toBe('0');

    await page.getByRole('button', { name: 'Select organization' }).click();
    await page.getByRole('menuitem', { name: /Harbor View Residences/ }).click();
    await expect.poll(() => cardValue(page, 'Active Recipients')).toBe('8');
    await context.close();
  });

  it('updates the account name in Settings and sees it in the sidebar', async () => {
    const { context, page } = await stack.newPage();
    await login(page);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Account' }).click();
    await page.getByLabel('First Name').fill('Dana');
    await page.getByLabel('Last Name').fill('Okonkwo');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByText('Dana Okonkwo').first().isVisible()).toBe(true);
    await context.close();
  });

  it('at phone width the sidebar collapses to icons and the dashboard stays usable', async () => {
    const { context, page } = await stack.newPage({ width: 390, height: 844 });
    await login(page);
    // Link labels are hidden; the links remain reachable by their accessible names.
    const dashboardLink = page.getByRole('link', { name: 'Mail Intake' });
    expect(await dashboardLink.isVisible()).toBe(true);
    const box = await page.locator('aside, nav').first().boundingBox();
    expect(box!.width).toBeLessThan(100);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The rail keeps the organization switcher and logout within the first screen.
    expect(await page.getByRole('button', { name: 'Select organization' }).isVisible()).toBe(true);
    const logout = await page.getByRole('button', { name: 'Logout' }).boundingBox();
    expect(logout!.y + logout!.height).toBeLessThanOrEqual(844);
    await stack.screenshot(page, 'dashboard-phone');
    await context.close();
  });
});
