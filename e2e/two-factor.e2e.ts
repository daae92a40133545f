import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerThroughUi, verifyEmailThroughInbox } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

/** What the phone's authenticator app shows, `steps` 30-second steps from now (each step's code works once). */
const codeFor = (secret: string, steps = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

describe('two-factor sign-in', () => {
  it('an admin turns it on in Account settings, signs in with a code, then with a recovery code, and turns it off', async () => {
    const { context, page } = await stack.newPage();
    const account = uniqueAccount('guarded');
    await registerThroughUi(page, account, 'Guarded Gardens');

    // Set-up waits for the address to be verified: the button says why it cannot be used yet.
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Account' }).click();
    const setUp = page.getByRole('button', { name: 'Set up two-factor' });
    await expect.poll(() => setUp.isDisabled()).toBe(true);
    expect(await page.getByText('Verify your email address first: two-factor set-up waits for it.').isVisible()).toBe(
      true,
    );
    await stack.screenshot(page, 'two-factor-waits-for-verified-email-desktop');
    await verifyEmailThroughInbox(stack, page, account.email);

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Account' }).click();
    await expect.poll(() => setUp.isEnabled()).toBe(true);
    await setUp.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Current Password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => dialog.getByText('Current password is incorrect').isVisible()).toBe(true);
    await dialog.getByLabel('Current Password').fill(account.password);
    await dialog.getByRole('button', { name: 'Continue' }).click();

    await expect.poll(() => dialog.getByRole('img', { name: /QR code/ }).isVisible()).toBe(true);
    const secret = (await dialog.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await stack.screenshot(page, 'two-factor-setup-desktop');
    await dialog.getByLabel('Authentication code').fill('000000');
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => dialog.getByText(/That code is not right/).isVisible()).toBe(true);
    await dialog.getByLabel('Authentication code').fill(codeFor(secret, -1));
    await dialog.getByRole('button', { name: 'Turn on' }).click();

    const codes = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    const recoveryCode = await codes.first().innerText();
    await stack.screenshot(page, 'two-factor-recovery-codes-desktop');
    await dialog.getByRole('button', { name: 'I have saved my codes' }).click();
    await expect.poll(() => page.getByText(/On since/).isVisible()).toBe(true);
    expect(await page.getByText('10 recovery codes left').isVisible()).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Two-factor authentication' }).scrollIntoViewIfNeeded();
    await stack.screenshot(page, 'two-factor-settings-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Signing in now asks for the code after the password.
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Sign In' }).first().isVisible()).toBe(true);
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.getByLabel('Authentication code').isVisible()).toBe(true);
    await stack.screenshot(page, 'two-factor-sign-in-desktop');
    // Nothing typed: the contract's message for the app's code, then for a recovery code.
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(() => page.getByText('Enter the 6-digit code from your authenticator app.', { exact: true }).isVisible())
      .toBe(true);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(() => page.getByText('Enter the 6-digit code from your authenticator app or a recovery code.').isVisible())
      .toBe(true);
    await page.getByRole('button', { name: 'Use the authenticator app instead' }).click();
    await page.getByLabel('Authentication code').fill(codeFor(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 10_000 })
      .toBe(true);

    // Lost phone: a recovery code instead, on a phone-sized screen.
    const phone = await stack.newPage({ width: 390, height: 844 });
    await phone.page.goto('/login');
    await phone.page.getByLabel('Email').fill(account.email);
    await phone.page.getByLabel('Password').fill(account.password);
    await phone.page.getByRole('button', { name: 'Sign In' }).click();
    await phone.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await phone.page.getByLabel('Recovery code').fill(recoveryCode);
    await stack.screenshot(phone.page, 'two-factor-recovery-phone');
    await phone.page.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(() => phone.page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    await phone.context.close();

    // Turning it off asks for the password and a code.
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Account' }).click();
    await expect.poll(() => page.getByText('9 recovery codes left').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Turn off' }).click();
    const off = page.getByRole('dialog');
    await off.getByLabel('Current Password').fill(account.password);
    await off.getByLabel(/Code from your app/).fill(codeFor(secret, 1));
    await off.getByRole('button', { name: 'Turn off' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Set up two-factor' }).isVisible()).toBe(true);
    await context.close();
  });
});
