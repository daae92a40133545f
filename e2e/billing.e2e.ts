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

/** Registers through /register and creates an organization (on its 7-day trial); answers its id. */
async function registerAdminWithOrganization(page: Page, org: string) {
  const account = uniqueAccount('billing');
  const id = (await registerThroughUi(page, account, org))!;
  return { id, account };
}

/** Closes the toasts on screen (the welcome toast would cover what the screenshot is about). */
async function dismissToasts(page: Page) {
  const close = page.getByRole('region', { name: /notifications/i }).getByRole('button', { name: 'Close' });
  for (const button of await close.all()) await button.click().catch(() => undefined);
  await expect.poll(() => close.count()).toBe(0);
}

/** The screenshot at desktop width, then at phone width, then back. */
async function shootBoth(page: Page, name: string, ready?: () => Promise<unknown>) {
  await dismissToasts(page);
  await page.setViewportSize(DESKTOP);
  await ready?.();
  await stack.screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await ready?.();
  await stack.screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/** Picks a choice drawn as a tile: a person clicks the tile (its label), not the visually hidden radio. */
async function choose(page: Page, name: RegExp | string) {
  const radio = page.getByRole('radio', { name });
  await radio.locator('xpath=ancestor::label[1]').click();
  await expect.poll(() => radio.isChecked()).toBe(true);
}

/** A call of the page's session with the organization header, as the client makes it. */
function post(page: Page, url: string, organizationId: string, body: unknown) {
  return page.evaluate(
    async ([u, id, b]) => {
      const res = await fetch(u as string, {
        method: 'POST',
        headers: { 'x-organization-id': id as string, 'content-type': 'application/json' },
        body: JSON.stringify(b),
        credentials: 'include',
      });
      return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
    },
    [url, organizationId, body] as const,
  );
}

describe('an admin on a free trial', () => {
  it('sees the days left, buys Professional for 5 users by card (demo provider) and finds it in Billing', async () => {
    const { context, page } = await stack.newPage(DESKTOP);
    await registerAdminWithOrganization(page, 'Lakeside Lofts');

    // The trial banner: quiet while days remain, with the way to a plan.
    const banner = page.getByRole('region', { name: 'Plan status' });
    await expect.poll(() => banner.getByText('Free trial: 7 days left').isVisible()).toBe(true);
    await shootBoth(page, 'billing-banner');

    await banner.getByRole('link', { name: 'Choose a plan' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Upgrade Your Plan' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/checkout');

    // Professional and 5 users are the defaults; the summary prices them.
    await choose(page, /^Professional/);
    const users = page.getByLabel('Number of users');
    await users.fill('5');
    expect(await page.getByRole('radio', { name: 'Credit Card' }).isChecked()).toBe(true);
    const summary = page.getByRole('region', { name: 'Payment summary' });
    await expect.poll(() => summary.getByText('5 users × $35').isVisible()).toBe(true);
    expect(await summary.getByText('$175').count()).toBeGreaterThan(0);
    // The demo provider charges nothing, so there is no "won't be charged until the trial ends" to
    // promise, nor a trial to start (only a Stripe checkout carries the trial over).
    await expect.poll(() => page.getByRole('button', { name: 'Subscribe' }).isVisible()).toBe(true);
    expect(await summary.getByText('7-Day Free Trial').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Start Free Trial' }).count()).toBe(0);
    expect(
      await page
        .getByText('Cancel anytime. No setup fees. Secure payment processing by a card payment provider.')
        .isVisible(),
    ).toBe(true);

    // A number outside the plan is explained inline and cannot be paid.
    await choose(page, /^Starter/);
    await expect.poll(() => users.inputValue()).toBe('3');
    await users.fill('4');
    await expect.poll(() => page.getByText('Starter is for 1 to 3 users').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Subscribe' }).isDisabled()).toBe(true);
    await choose(page, /^Professional/);
    await users.fill('5');
    await expect.poll(() => page.getByRole('button', { name: 'Subscribe' }).isEnabled()).toBe(true);
    await shootBoth(page, 'billing-checkout');

    // Card: the stack has no provider keys (the demo provider is on by default outside production),
    // so the demo provider's page stands in for Stripe Checkout.
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/checkout\/demo\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByText('Demo payment provider — no card is charged').isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Professional plan for 5 users' }).isVisible())
      .toBe(true);
    expect(await page.getByText(/\$175 USD/).isVisible()).toBe(true);
    await shootBoth(page, 'billing-demo-provider');

    await page.getByRole('button', { name: 'Complete demo payment' }).click();
    await expect.poll(() => page.getByText('Payment Successful!', { exact: true }).isVisible()).toBe(true);
    await expect
      .poll(() =>
        page.getByText('Your organization has been upgraded to Professional plan.', { exact: true }).isVisible(),
      )
      .toBe(true);
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 5_000 }).toBe('/dashboard');
    await expect.poll(() => page.getByRole('heading', { name: 'Dashboard' }).isVisible()).toBe(true);
    await stack.screenshot(page, 'billing-paid-dashboard-desktop');
    // An active paid plan has no banner.
    await expect.poll(() => banner.count()).toBe(0);

    // Settings > Billing and Plans: the plan, its seats, the licence and the payment.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Billing and Plans' }).click();
    const plan = page.getByRole('group', { name: 'Current plan' });
    await expect.poll(() => plan.getByRole('heading', { name: 'Professional' }).isVisible()).toBe(true);
    expect(await plan.getByText('Active', { exact: true }).isVisible()).toBe(true);
    expect(await plan.getByText('1 of 5', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => plan.getByText('Demo Environment', { exact: true }).isVisible()).toBe(true);
    const licences = page.getByRole('table', { name: 'Licences' });
    await expect.poll(() => licences.getByRole('row').count()).toBe(2);
    const licence = licences.getByRole('row').nth(1);
    expect(await licence.getByRole('cell').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('Professional'), '5', '$35', '$175']),
    );
    const payments = page.getByRole('table', { name: 'Payment history' });
    await expect.poll(() => payments.getByText('$175', { exact: true }).isVisible()).toBe(true);
    expect(await payments.getByText('Paid', { exact: true }).isVisible()).toBe(true);
    await shootBoth(page, 'billing-settings-tab');

    // The same screen at /settings-billing, as Stripe's return lands there.
    await page.goto('/settings-billing?checkout=success');
    await expect.poll(() => page.getByRole('heading', { name: 'Billing and Plans' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Payment confirmed.', { exact: false }).isVisible()).toBe(true);
    await context.close();
  });
});

describe('paying with PayPal', () => {
  it('pays Starter for 3 users through the demo PayPal button: order, capture, upgrade', async () => {
    const { context, page } = await stack.newPage(DESKTOP);
    await registerAdminWithOrganization(page, 'Mill Street Offices');
    await page.goto('/checkout');
    await choose(page, /^Starter/);
    await expect.poll(() => page.getByLabel('Number of users').inputValue()).toBe('3');
    await choose(page, 'PayPal');
    const pay = page.getByRole('button', { name: 'Pay with PayPal (demo)' });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    await dismissToasts(page);
    await stack.screenshot(page, 'billing-checkout-paypal-desktop');
    await pay.click();
    await expect
      .poll(() => page.getByText('Your organization has been upgraded to Starter plan.', { exact: true }).isVisible())
      .toBe(true);
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 5_000 }).toBe('/dashboard');
    await page.goto('/settings-billing');
    const plan = page.getByRole('group', { name: 'Current plan' });
    await expect.poll(() => plan.getByRole('heading', { name: 'Starter' }).isVisible()).toBe(true);
    expect(await plan.getByText('1 of 3', { exact: true }).isVisible()).toBe(true);
    await context.close();
  });
});

describe('the payment choices the server offers (decision 028)', () => {
  /**
   * The server's own replies with what another configuration would say: which providers take the
   * choices (GET /api/plans) and whether a card checkout keeps the trial (the licence summary).
   */
  async function serverSays(
    page: Page,
    providers: { card: string | null; paypal: string | null },
    cardTrialEndsAt: string | null = null,
  ) {
    await page.route('**/api/plans', async (route) => {
      const reply = await route.fetch();
      const body = { ...((await reply.json()) as object), demoMode: false, providers };
      await route.fulfill({ response: reply, json: body });
    });
    await page.route('**/api/licenses/summary', async (route) => {
      const reply = await route.fetch();
      await route.fulfill({ response: reply, json: { ...((await reply.json()) as object), cardTrialEndsAt } });
    });
  }

  /** A server of its own, configured as an operator would (no mocked replies): its stack and a page. */
  async function configuredAs(env: Record<string, string>) {
    const own = await startStack({ env });
    const { context, page } = await own.newPage(DESKTOP);
    return { own, context, page };
  }

  it('shows a designed notice when no payment method is set up, and only the methods offered otherwise', async () => {
    // Production's default without keys: no demo provider, nothing offered.
    const { own, context, page } = await configuredAs({ DEMO_PAYMENTS: 'false' });
    await registerAdminWithOrganization(page, 'Orchard Court');
    await page.goto('/checkout');
    const summary = page.getByRole('region', { name: 'Payment summary' });
    await expect.poll(() => summary.getByText('Online payment is not set up yet').isVisible()).toBe(true);
    const contact = summary.getByRole('link', { name: 'Contact sales' });
    expect(await contact.getAttribute('href')).toMatch(/^mailto:sales@pigeonhole\.local\?subject=/);
    expect(await page.getByRole('radio', { name: 'Credit Card' }).count()).toBe(0);
    expect(await page.getByRole('radio', { name: 'PayPal' }).count()).toBe(0);
    expect(await summary.getByText('7-Day Free Trial').count()).toBe(0);
    expect(await page.getByText('Secure payment processing', { exact: false }).count()).toBe(0);
    await shootBoth(page, 'billing-checkout-no-payment-method');
    await context.close();
    await own.stop();
  });

  it('offers the card alone when PayPal is not set up, with the trial note only when Stripe keeps the trial', async () => {
    // Stripe's keys only (nothing here reaches Stripe: the page only shows what the server offers).
    const { own, context, page } = await configuredAs({
      STRIPE_SECRET_KEY: 'sk_test_e2e',
      STRIPE_API_URL: 'http://127.0.0.1:9',
    });
    const { id } = await registerAdminWithOrganization(page, 'Birch House');
    await page.goto('/checkout');
    const summary = page.getByRole('region', { name: 'Payment summary' });
    await expect.poll(() => summary.getByText('7-Day Free Trial').isVisible()).toBe(true);
    expect(await summary.getByText("You won't be charged until after the trial period ends").isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Start Free Trial' }).isVisible()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Credit Card' }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'PayPal' }).count()).toBe(0);

    // A day of trial left: Stripe would not keep it (under 49 hours), so nothing is promised.
    await own.sql("update organizations set trial_end_date = now() + interval '24 hours' where id = $1", [id]);
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Subscribe' }).isVisible()).toBe(true);
    expect(await summary.getByText("You won't be charged until after the trial period ends").count()).toBe(0);
    await context.close();
    await own.stop();
  });

  it('never promises the trial to a PayPal payment, which is charged at once', async () => {
    const { context, page } = await stack.newPage(DESKTOP);
    await registerAdminWithOrganization(page, 'Elm Yard');
    await serverSays(page, { card: 'stripe', paypal: 'demo' }, new Date(Date.now() + 6 * 86_400_000).toISOString());
    await page.goto('/checkout');
    const summary = page.getByRole('region', { name: 'Payment summary' });
    await expect.poll(() => summary.getByText('7-Day Free Trial').isVisible()).toBe(true);
    await choose(page, 'PayPal');
    await expect.poll(() => summary.getByText('7-Day Free Trial').count()).toBe(0);
    await context.close();
  });
});

describe('an organization whose trial has ended', () => {
  it('keeps its mail readable, explains the pause and disables Log New Mail', async () => {
    const { context, page } = await stack.newPage(DESKTOP);
    const { id } = await registerAdminWithOrganization(page, 'Quayside Studios');
    await stack.sql("update organizations set trial_end_date = now() - interval '1 hour' where id = $1", [id]);

    await page.goto('/mail-intake');
    const banner = page.getByRole('region', { name: 'Plan status' });
    await expect.poll(() => banner.getByText('Free trial expired').isVisible()).toBe(true);
    const notice = page.getByText(
      'Your free trial has ended. Everything logged so far stays available; logging new mail is paused until an admin chooses a plan.',
    );
    await expect.poll(() => notice.isVisible()).toBe(true);
    const log = page.getByRole('button', { name: 'Log New Mail' });
    expect(await log.isDisabled()).toBe(true);
    expect(await page.getByRole('link', { name: 'Choose a plan' }).count()).toBeGreaterThan(0);
    await shootBoth(page, 'billing-expired-intake');

    // The server refuses the same (402 trial_expired) and reads stay open.
    const refused = await post(page, '/api/mail-items', id, { type: 'letter' });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('trial_expired');

    // Inviting and adding integrations say so too, instead of failing.
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'User Management' }).click();
    await expect
      .poll(() =>
        page
          .getByText('inviting new members is paused until an admin chooses a plan', { exact: false })
          .first()
          .isVisible(),
      )
      .toBe(true);
    expect(await page.getByRole('button', { name: 'Invite user' }).first().isDisabled()).toBe(true);
    await page.goto('/integrations');
    await expect
      .poll(() =>
        page.getByText('adding new integrations is paused until an admin chooses a plan', { exact: false }).isVisible(),
      )
      .toBe(true);
    expect(await page.getByRole('button', { name: 'Add integration' }).isDisabled()).toBe(true);
    await context.close();
  });
});
