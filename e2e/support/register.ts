import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { Stack, uniqueAccount } from './stack';

type Account = ReturnType<typeof uniqueAccount>;

/**
 * Registers through /register as a person would; with `organization`, creates it in onboarding
 * and waits for the dashboard, answering its id (otherwise onboarding is left on screen).
 */
export async function registerThroughUi(page: Page, account: Account, organization?: string) {
  await page.goto('/register');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password').fill(account.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  const create = page.getByRole('button', { name: /create your first organization/i });
  await expect.poll(() => create.isVisible(), { timeout: 10_000 }).toBe(true);
  if (!organization) return undefined;
  await create.click();
  await page.getByLabel('Organization Name').fill(organization);
  await page.getByRole('button', { name: 'Create Organization' }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 10_000 }).toBe(true);
  const id = await page.evaluate(() => localStorage.getItem('selectedOrganizationId'));
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id!;
}

/** Opens the verification link emailed to the account, as its owner would, and waits for the answer. */
export async function verifyEmailThroughInbox(stack: Stack, page: Page, email: string) {
  const mail = await stack.smtp.waitFor(email, { subject: /Verify/ });
  const link = /(http:\/\/[^\s"<>]+\/verify-email\?token=[\w-]+)/.exec(mail.text)?.[1];
  expect(link).toBeDefined();
  await page.goto(link!);
  await expect.poll(() => page.getByRole('heading', { name: 'Email Verified' }).isVisible()).toBe(true);
}
