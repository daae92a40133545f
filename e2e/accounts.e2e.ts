import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

describe('a new front-desk lead', () => {
  it('registers, creates an organization in onboarding, lands on the dashboard, logs out and back in', async () => {
    const { context, page } = await stack.newPage();
    const account = uniqueAccount('lead');
    await page.goto('/register');
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm Password').fill('mismatch-123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => page.getByText("Passwords don't match").isVisible()).toBe(true);
    await page.getByLabel('Confirm Password').fill(account.password);
    await page.getByRole('button', { name: 'Create Account' }).click();

    // No organization yet: onboarding replaces every route.
    await page.getByRole('button', { name: /create your first organization/i }).click();
    await page.getByRole('button', { name: 'Create Organization' }).click();
    await expect.poll(() => page.getByText('Organization name is required').isVisible()).toBe(true);
    await page.getByLabel('Organization Name').fill('Harbor View Residences');
    await page.getByLabel('Contact Email').fill('desk@harborview.example');
    await page.getByRole('button', { name: 'Create Organization' }).click();

    await expect
      .poll(() => page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    for (const card of ["Today's Mail", 'Pending Pickups', 'Active Recipients', 'Delivery Rate']) {
      await expect.poll(() => page.getByText(card, { exact: true }).first().isVisible()).toBe(true);
    }
    await expect.poll(() => page.getByText('No recent activity').isVisible()).toBe(true);
    const selected = await page.evaluate(() => localStorage.getItem('selectedOrganizationId'));
    expect(selected).toMatch(/^[0-9a-f-]{36}$/);
    await stack.screenshot(page, 'dashboard-desktop');

    await page.getByRole('button', { name: 'Logout' }).click();
    // Logout lands on the landing page (the dashboard was at / as well, so wait for the page itself).
    await expect.poll(() => page.getByRole('link', { name: 'Sign In' }).first().isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Dashboard' }).isVisible()).toBe(false);

    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill('wrong-password-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.getByText('Invalid username or password').first().isVisible()).toBe(true);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    expect(await page.getByText('Harbor View Residences').first().isVisible()).toBe(true);
    await context.close();
  });

  it('verifies the email with the emailed link, and Account settings says so', async () => {
    const { context, page } = await stack.newPage();
    const account = uniqueAccount('verify');
    await registerThroughUi(page, account, 'Verified Views');

    // Not verified yet: Account settings offers a new link.
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Account' }).click();
    await expect
      .poll(() => page.getByText(`${account.email} is not verified yet.`, { exact: false }).isVisible())
      .toBe(true);

    const mail = await stack.smtp.waitFor(account.email, { subject: /Verify/ });
    const link = /(http:\/\/[^\s"<>]+\/verify-email\?token=[\w-]+)/.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    await page.goto(link!);
    await expect.poll(() => page.getByRole('heading', { name: 'Email Verified' }).isVisible()).toBe(true);
    await stack.screenshot(page, 'verify-email-desktop');
    await page.getByRole('link', { name: 'Continue to Pigeonhole' }).click();
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Account' }).click();
    await expect.poll(() => page.getByText(`${account.email} is verified.`).isVisible()).toBe(true);

    // The same link again is refused, and says what to do.
    await page.goto(link!);
    await expect.poll(() => page.getByRole('heading', { name: 'Invalid Verification Link' }).isVisible()).toBe(true);
    await context.close();
  });

  it('forgets the password, resets it with the emailed link and logs in with the new one', async () => {
    const { context, page } = await stack.newPage();
    const account = uniqueAccount('forgetful');
    const res = await page.request.post('/api/register', { data: account });
    expect(res.status()).toBe(201);
    await page.request.post('/api/logout');

    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect.poll(() => page.getByText(/spam/i).first().isVisible()).toBe(true);

    const mail = await stack.smtp.waitFor(account.email, { subject: /Reset/ });
    const link = /(http:\/\/[^\s"<>]+\/reset-password\?token=[\w-]+)/.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    await page.goto(link!);
    await page.getByLabel('New Password', { exact: true }).fill('brand-new-secret');
    await page.getByLabel('Confirm New Password').fill('brand-new-secret');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('link', { name: /go to login/i }).click();

    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill('brand-new-secret');
    await page.getByRole('button', { name: 'Sign In' }).click();
    // Signed in without an organization: onboarding greets them.
    await expect
      .poll(() => page.getByRole('button', { name: /create your first organization/i }).isVisible(), {
        timeout: 10_000,
      })
      .toBe(true);
    await context.close();
  });

  it('shows the invalid-link view without a token and the 404 page for unknown routes', async () => {
    const { context, page } = await stack.newPage();
    await page.goto('/reset-password');
    await expect.poll(() => page.getByText('Invalid Reset Link').isVisible()).toBe(true);
    const account = uniqueAccount('lost');
    await page.request.post('/api/register', { data: account });
    await page.request.post('/api/organizations', { data: { name: 'Lost and Found' } });
    await page.goto('/no-such-page');
    await expect.poll(() => page.getByText('404 Page Not Found').isVisible()).toBe(true);
    expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);
    await context.close();
  });
});
