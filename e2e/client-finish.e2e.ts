import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { handOverBody } from './support/page-api';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Dismisses toasts so that they cover nothing in a screenshot. */
async function closeToasts(page: Page) {
  for (const close of await page.getByRole('button', { name: 'Close' }).all()) await close.click();
}

/** The organization the signed-in page acts on, as the header the API checks. */
async function orgHeaders(page: Page) {
  const organizationId = await page.evaluate(() => localStorage.getItem('selectedOrganizationId'));
  return { 'x-organization-id': organizationId ?? '' };
}

/** Logs a package through the API, as the front desk would, and moves it to `status`. */
async function logItem(page: Page, sender: string, status = 'pending') {
  const headers = await orgHeaders(page);
  const created = await page.request.post('/api/mail-items', {
    headers,
    data: { type: 'package', sender, trackingNumber: `CF-${sender.replace(/\W/g, '')}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  if (status === 'delivered') {
    // Delivered only through the hand-over (decision 053).
    const moved = await page.request.post('/api/handovers', { headers, data: await handOverBody([id], 'Sam Rivera') });
    expect(moved.ok(), await moved.text()).toBe(true);
  } else if (status !== 'pending') {
    const moved = await page.request.put(`/api/mail-items/${id}`, { headers, data: { status } });
    expect(moved.ok(), await moved.text()).toBe(true);
  }
  return id;
}

/** Each shown mail-status badge's colours, by status: the status map of one screen. */
async function statusColours(page: Page) {
  return page.evaluate(() => {
    const colours: Record<string, { background: string; text: string; border: string }> = {};
    for (const badge of document.querySelectorAll<HTMLElement>('[data-status]')) {
      if (!badge.checkVisibility()) continue;
      const style = getComputedStyle(badge);
      colours[badge.dataset.status!] = {
        background: style.backgroundColor,
        text: style.color,
        border: style.borderTopColor,
      };
    }
    return colours;
  });
}

/** Holds every call to `path` until the returned function is called: the list stays loading. */
async function holdCalls(page: Page, path: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === path,
    async (route: Route) => {
      await gate;
      await route.continue();
    },
  );
  return release;
}

describe('onboarding', () => {
  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`says 'Success!' once the first organization exists and the app replaces onboarding (${width})`, async () => {
      const { context, page } = await stack.newPage(viewport);
      await registerThroughUi(page, uniqueAccount(`onboard${width}`));
      await page.getByRole('button', { name: /create your first organization/i }).click();
      await page.getByLabel('Organization Name').fill(`Toast Test ${width}`);
      await page.getByRole('button', { name: 'Create Organization' }).click();

      // the shell replaced the onboarding screen, and the toast survived the swap
      await expect.poll(() => page.getByRole('heading', { name: 'Dashboard' }).isVisible()).toBe(true);
      const toast = page.getByText('Your organization has been created successfully.', { exact: true });
      await expect.poll(() => toast.isVisible()).toBe(true);
      expect(await page.getByText('Success!', { exact: true }).isVisible()).toBe(true);
      await stack.screenshot(page, `client-finish-onboarding-toast-${width}`);
      await context.close();
    });
  }
});

describe('status colours', () => {
  it('are the same on Mail Intake and on the dashboard, Returned included', async () => {
    const { context, page } = await stack.newPage(DESKTOP);
    await stack.signInAsDemo(page);
    // the four newest items, one in each status, lead both lists
    await logItem(page, 'Status Pending');
    await logItem(page, 'Status Notified', 'notified');
    await logItem(page, 'Status Delivered', 'delivered');
    await logItem(page, 'Status Returned', 'returned');

    await page.reload();
    await expect.poll(() => page.getByText('From Status Returned', { exact: false }).isVisible()).toBe(true);
    await closeToasts(page);
    const dashboard = await statusColours(page);
    await stack.screenshot(page, 'client-finish-statuses-dashboard-desktop');

    await page.getByRole('link', { name: 'Mail Intake' }).click();
    await expect.poll(() => page.getByText('Status Returned', { exact: false }).first().isVisible()).toBe(true);
    const intake = await statusColours(page);
    await stack.screenshot(page, 'client-finish-statuses-intake-desktop');

    for (const status of ['pending', 'notified', 'delivered', 'returned']) {
      expect(dashboard[status], `${status} on the dashboard`).toBeDefined();
      expect(intake[status], `${status} on Mail Intake`).toEqual(dashboard[status]);
    }
    // spec §2: pending yellow, delivered green, any other status blue
    expect(intake.returned).toEqual(intake.notified);
    expect(intake.returned).not.toEqual(intake.pending);
    expect(intake.delivered).not.toEqual(intake.pending);
    await context.close();

    const phone = await stack.newPage(PHONE);
    await stack.signInAsDemo(phone.page);
    await closeToasts(phone.page);
    expect(await statusColours(phone.page)).toMatchObject(dashboard);
    await stack.screenshot(phone.page, 'client-finish-statuses-dashboard-phone');
    await phone.context.close();
  });
});

describe('the Pager', () => {
  it('pages Mail Intake and History with the same words and buttons', async () => {
    const { context, page } = await stack.newPage(DESKTOP);
    await stack.signInAsDemo(page);
    // the demo's 6 items, the 4 above and 20 more: 30, over the 25 of a page
    for (let n = 1; n <= 20; n += 1) await logItem(page, `Pager Sender ${n}`);

    await page.getByRole('link', { name: 'Mail Intake' }).click();
    const intakePager = page.getByRole('navigation', { name: 'Mail items pages' });
    await expect.poll(() => intakePager.getByText('Showing 1–25 of 30').isVisible()).toBe(true);
    expect(await intakePager.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    await intakePager.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => intakePager.getByText('Showing 26–30 of 30').isVisible()).toBe(true);
    expect(await intakePager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await closeToasts(page);
    await intakePager.scrollIntoViewIfNeeded();
    await stack.screenshot(page, 'client-finish-pager-intake-desktop');

    await page.getByRole('link', { name: 'History' }).click();
    const historyPager = page.getByRole('navigation', { name: 'History pages' });
    await expect.poll(() => historyPager.getByText('Showing 1–25 of 30').isVisible()).toBe(true);
    await historyPager.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => historyPager.getByText('Showing 26–30 of 30').isVisible()).toBe(true);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await historyPager.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => historyPager.getByText('Showing 1–25 of 30').isVisible()).toBe(true);
    await context.close();

    // a list on one page shows its count and no buttons
    const phone = await stack.newPage(PHONE);
    await stack.signInAsDemo(phone.page);
    await closeToasts(phone.page);
    await phone.page.goto('/recipients');
    const recipientsPager = phone.page.getByRole('navigation', { name: 'Recipients pages' });
    await expect.poll(() => recipientsPager.getByText('Showing 1–8 of 8').isVisible()).toBe(true);
    expect(await recipientsPager.getByRole('button').count()).toBe(0);

    await phone.page.goto('/mail-intake');
    const phonePager = phone.page.getByRole('navigation', { name: 'Mail items pages' });
    await expect.poll(() => phonePager.getByText('Showing 1–25 of 30').isVisible()).toBe(true);
    await phonePager.scrollIntoViewIfNeeded();
    await stack.screenshot(phone.page, 'client-finish-pager-intake-phone');
    await phone.context.close();
  });
});

describe('loading skeletons', () => {
  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`show 10 rows on History and 5 on Recipients while the list loads (${width})`, async () => {
      const { context, page } = await stack.newPage(viewport);
      await stack.signInAsDemo(page);
      await closeToasts(page);

      const releaseHistory = await holdCalls(page, '/api/history');
      await page.goto('/history');
      const history = page.locator('[aria-busy="true"][data-skeleton]').filter({ visible: true });
      await expect.poll(() => history.getAttribute('aria-label')).toBe('Loading history');
      expect(await history.locator('[data-skeleton-row]').filter({ visible: true }).count()).toBe(10);
      await stack.screenshot(page, `client-finish-skeleton-history-${width}`);
      releaseHistory();
      await expect.poll(() => history.count()).toBe(0);
      await expect.poll(() => page.getByRole('navigation', { name: 'History pages' }).isVisible()).toBe(true);

      const releaseRecipients = await holdCalls(page, '/api/recipients');
      await page.goto('/recipients');
      const recipients = page.locator('[aria-busy="true"][data-skeleton]').filter({ visible: true });
      await expect.poll(() => recipients.getAttribute('aria-label')).toBe('Loading recipients');
      expect(await recipients.locator('[data-skeleton-row]').filter({ visible: true }).count()).toBe(5);
      await stack.screenshot(page, `client-finish-skeleton-recipients-${width}`);
      releaseRecipients();
      await expect.poll(() => recipients.count()).toBe(0);
      await context.close();
    });
  }
});
