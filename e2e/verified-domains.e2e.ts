import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMAIN_MESSAGES } from '../src/contract/domains';
import { startTestDns } from '../src/server/test/dns-server';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

/**
 * Issue 43, verified email domains (decision 058), in Chromium against a real DNS server on
 * loopback (DNS_SERVERS): an admin adds a domain in Settings → Single sign-on, copies its TXT
 * record, is told when the record is not there yet, publishes it, and sees the domain verified;
 * removes one after confirming; and a super admin verifies a pending domain from the console.
 */

const DESKTOP = { width: 1280, height: 800 };
let stack: Stack;
let dns: Awaited<ReturnType<typeof startTestDns>>;

beforeAll(async () => {
  dns = await startTestDns();
  stack = await startStack({ env: { DNS_SERVERS: dns.servers } });
});

afterAll(async () => {
  await stack?.stop();
  await dns?.close();
});

describe('verified email domains', () => {
  it('an admin proves a domain by its DNS record; a super admin verifies another from the console', async () => {
    const tag = Date.now().toString(36);
    const domain = `harbor-${tag}.example`;
    const orgName = `Harbor Domains ${tag}`;
    const { page, context } = await stack.newPage(DESKTOP);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await registerThroughUi(page, uniqueAccount('domains'), orgName);

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Single sign-on' }).click();
    await expect.poll(() => page.getByText('No domains yet').isVisible()).toBe(true);

    // A URL is not a domain: said at the field, nothing sent.
    const field = page.getByLabel('Domain', { exact: true });
    await field.fill(`https://${domain}`);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect.poll(() => page.getByText(DOMAIN_MESSAGES.invalid).isVisible()).toBe(true);

    await field.fill(domain.toUpperCase());
    await page.getByRole('button', { name: 'Add domain' }).click();
    const list = page.getByRole('list', { name: 'Email domains' });
    const row = list.getByRole('listitem').filter({ hasText: domain });
    await expect.poll(() => row.getByText('Pending', { exact: true }).isVisible()).toBe(true);
    const name = await row.getByLabel('Name', { exact: true }).inputValue();
    const value = await row.getByLabel('Value', { exact: true }).inputValue();
    expect(name).toBe(`_pigeonhole.${domain}`);
    expect(value).toMatch(/^pigeonhole-verification=[0-9a-f]{32}$/);

    // The copy button puts the value on the clipboard.
    await row.getByRole('button', { name: "Copy the record's value" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);

    // Not published yet: the reason, in the row.
    await row.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => row.getByRole('alert').innerText()).toBe(DOMAIN_MESSAGES.recordNotFound(name));
    await stack.screenshot(page, 'verified-domains-pending');

    // Published: verified.
    dns.zone.set(name, { txt: [value] });
    await row.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => row.getByText('Verified', { exact: true }).isVisible()).toBe(true);
    expect(await row.getByText(/by its DNS record/).isVisible()).toBe(true);
    expect(await row.getByRole('button', { name: 'Verify' }).count()).toBe(0);
    await stack.screenshot(page, 'verified-domains-verified');

    // A second domain, removed after confirming.
    const spare = `spare-${tag}.example`;
    await field.fill(spare);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await page.getByRole('button', { name: `Remove ${spare}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove domain?' });
    await confirm.getByRole('button', { name: 'Remove domain' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);

    // A third, pending, verified by a platform operator from the console.
    const vouched = `vouched-${tag}.example`;
    await field.fill(vouched);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);

    const operator = await stack.newPage(DESKTOP);
    const operatorAccount = uniqueAccount('domainsop');
    await registerThroughUi(operator.page, operatorAccount);
    await stack.sql('update users set is_super_admin = true where email = $1', [operatorAccount.email]);
    // The flag shows once the instance's session cache lets go of the session (CACHE_TTL_MS).
    await expect
      .poll(
        async () => {
          await operator.page.goto('/super-admin');
          // (the heading comes after the app's first answers: wait for it, not only for the load)
          return operator.page
            .getByRole('heading', { name: 'Super Admin Dashboard' })
            .waitFor({ timeout: 3000 })
            .then(
              () => true,
              () => false,
            );
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    await operator.page.getByPlaceholder('Search organizations, users, or domains...').fill(orgName);
    const table = operator.page.getByRole('table', { name: 'Organizations' });
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await table.getByRole('button', { name: `Manage ${orgName}` }).click();
    const dialog = operator.page.getByRole('dialog', { name: `Manage ${orgName}` });
    const domains = dialog.getByRole('list', { name: 'Email domains' });
    await expect.poll(() => domains.getByRole('listitem').count()).toBe(2);
    await dialog.getByRole('button', { name: `Verify ${vouched}` }).click();
    await expect.poll(() => dialog.getByRole('button', { name: `Verify ${vouched}` }).count()).toBe(0);
    expect(await domains.getByText(/^Verified/).count()).toBe(2);
    await stack.screenshot(operator.page, 'verified-domains-console');

    // The admin sees it verified, by Pigeonhole support.
    await page.reload();
    await page.getByRole('tab', { name: 'Single sign-on' }).click();
    const vouchedRow = list.getByRole('listitem').filter({ hasText: vouched });
    await expect.poll(() => vouchedRow.getByText(/by Pigeonhole support/).isVisible()).toBe(true);
  });
});
