import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

/**
 * Issue 24, finding 3: a listed SUPER_ADMIN_EMAILS address becomes the operator's only when the
 * inbox owner sets the password through the emailed link, and (as in production) the console
 * waits for two-factor.
 */
const owner = uniqueAccount('operator');
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { SUPER_ADMIN_EMAILS: owner.email, SUPER_ADMIN_TWO_FACTOR: 'required' } });
});
afterAll(() => stack?.stop());

const linkIn = async (subject: RegExp, path: string) => {
  const mail = await stack.smtp.waitFor(owner.email, { subject });
  const link = new RegExp(`(http://[^\\s"<>]+/${path}\\?token=[\\w-]+)`).exec(mail.text)?.[1];
  expect(link, mail.text).toBeDefined();
  return link!;
};

describe('the first super admin', () => {
  it('is whoever holds the inbox, not whoever registered the address first, and opens the console with two-factor', async () => {
    // Someone registers the operator's address first, with a password of their own.
    const taker = await stack.newPage();
    await registerThroughUi(taker.page, { ...owner, password: 'takers-password' }, 'Taken Towers');
    expect(await taker.page.getByRole('link', { name: 'Super Admin' }).count()).toBe(0);

    // The real owner opens the verification email: verified, and told to choose the password.
    const inbox = await stack.newPage();
    await inbox.page.goto(await linkIn(/Verify/, 'verify-email'));
    await expect.poll(() => inbox.page.getByRole('heading', { name: 'Email Verified' }).isVisible()).toBe(true);
    expect(await inbox.page.getByText(/choose your password through the link we just emailed you/).isVisible()).toBe(
      true,
    );
    await stack.screenshot(inbox.page, 'super-admin-claim-verified-desktop');

    // The second link sets the password: the taker is signed out and the role is the owner's.
    await inbox.page.goto(await linkIn(/platform administrator/, 'reset-password'));
    await inbox.page.getByLabel('New Password', { exact: true }).fill('owners-password');
    await inbox.page.getByLabel('Confirm New Password').fill('owners-password');
    await inbox.page.getByRole('button', { name: 'Reset Password' }).click();
    await inbox.page.getByRole('link', { name: /go to login/i }).click();
    await inbox.page.getByLabel('Email').fill(owner.email);
    await inbox.page.getByLabel('Password').fill('owners-password');
    await inbox.page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => inbox.page.getByRole('link', { name: 'Super Admin' }).isVisible()).toBe(true);

    await taker.page.reload();
    await expect.poll(() => taker.page.getByRole('link', { name: 'Sign In' }).first().isVisible()).toBe(true);

    // The console waits for two-factor, and says how to turn it on.
    await inbox.page.getByRole('link', { name: 'Super Admin' }).click();
    await expect
      .poll(() => inbox.page.getByRole('heading', { name: 'Two-factor authentication required' }).isVisible())
      .toBe(true);
    await stack.screenshot(inbox.page, 'super-admin-two-factor-required-desktop');
    await inbox.page.setViewportSize({ width: 390, height: 844 });
    await stack.screenshot(inbox.page, 'super-admin-two-factor-required-phone');
    await inbox.page.setViewportSize({ width: 1280, height: 800 });

    await inbox.page.getByRole('link', { name: 'Open Account settings' }).click();
    await inbox.page.getByRole('tab', { name: 'Account' }).click();
    await inbox.page.getByRole('button', { name: 'Set up two-factor' }).click();
    const dialog = inbox.page.getByRole('dialog');
    await dialog.getByLabel('Current Password').fill('owners-password');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const secret = (await dialog.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
    await dialog
      .getByLabel('Authentication code')
      .fill(new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate());
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    await dialog.getByRole('button', { name: 'I have saved my codes' }).click();

    await inbox.page.goto('/super-admin');
    await expect.poll(() => inbox.page.getByRole('heading', { name: 'Super Admin Dashboard' }).isVisible()).toBe(true);
    await taker.context.close();
    await inbox.context.close();
  });
});
