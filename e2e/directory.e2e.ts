import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

/**
 * Issue 43 §2, SCIM provisioning (decision 060), in Chromium: an admin creates a token in
 * Settings → Directory (shown once), a SCIM client provisions two people with it as Entra ID does
 * (filter, then create) and deactivates one; the desk's Recipients list shows both marked
 * "Directory", the one who left marked "Left"; Settings → Directory → Recent calls lists every call,
 * reads and a failed one too, without the userNames filtered on.
 */

const DESKTOP = { width: 1280, height: 800 };
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.stop();
});

describe('directory provisioning', () => {
  it('an admin creates a token; users a SCIM client creates appear at the desk, one deactivated shows Left', async () => {
    const tag = Date.now().toString(36);
    const { page } = await stack.newPage(DESKTOP);
    await registerThroughUi(page, uniqueAccount('directory'), `Contoso ${tag}`);

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Directory' }).click();
    await expect.poll(() => page.getByText('No SCIM tokens yet').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('No calls yet').isVisible()).toBe(true);
    await stack.screenshot(page, 'directory-recent-calls-empty-1280');
    const baseUrl = await page.getByLabel('SCIM base URL (Tenant URL)').inputValue();
    expect(baseUrl).toBe(`${stack.url}/scim/v2`);

    await page.getByLabel('Token name').fill('Entra ID');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = page.getByLabel('Secret token');
    await expect.poll(() => secret.isVisible()).toBe(true);
    const token = await secret.inputValue();
    expect(token).toMatch(/^scim_/);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const tokens = page.getByRole('list', { name: 'SCIM tokens' });
    await expect.poll(() => tokens.getByText('Entra ID').isVisible()).toBe(true);
    await expect.poll(() => secret.count()).toBe(0);

    const scim = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const ids: string[] = [];
    for (const [given, family] of <Array<[string, string]>>[
      ['Ines', `Okafor${tag}`],
      ['Tomas', `Lindqvist${tag}`],
    ]) {
      const userName = `${given.toLowerCase()}.${tag}@contoso.example`;
      const found = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
      expect(found.body.totalResults).toBe(0);
      const created = await scim('POST', '/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE],
        userName,
        active: true,
        name: { givenName: given, familyName: family },
        emails: [{ type: 'work', primary: true, value: userName }],
        addresses: [{ type: 'work', formatted: 'Building 2' }],
        [ENTERPRISE]: { department: 'Finance' },
      });
      expect(created.status).toBe(201);
      ids.push(String(created.body.id));
    }
    const left = await scim('PATCH', `/Users/${ids[1]}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(left.status).toBe(200);

    await page.goto('/recipients');
    const table = page.getByRole('table');
    const ines = table.getByRole('row').filter({ hasText: `Okafor${tag}` });
    const tomas = table.getByRole('row').filter({ hasText: `Lindqvist${tag}` });
    await expect.poll(() => ines.getByText('Directory', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => ines.getByText('Active', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => tomas.getByText('Left', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => tomas.getByText('Directory', { exact: true }).isVisible()).toBe(true);

    // A call that fails: listed too, with its status.
    expect((await scim('GET', '/Users/not-a-user')).status).toBe(404);

    // The token's last use shows in Settings, and every call in Recent calls, newest first.
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Directory' }).click();
    await expect
      .poll(() =>
        page
          .getByRole('list', { name: 'SCIM tokens' })
          .getByText(/last used/)
          .isVisible(),
      )
      .toBe(true);
    const calls = page.getByRole('list', { name: 'SCIM calls' });
    await expect.poll(() => calls.getByRole('listitem').count()).toBe(6);
    const newest = calls.getByRole('listitem').first();
    expect(await newest.textContent()).toContain('/Users/not-a-user');
    expect(await newest.getByLabel('Status 404').isVisible()).toBe(true);
    expect(await calls.getByText('?filter=userName eq …').count()).toBe(2);
    expect(await calls.textContent()).not.toContain('contoso.example');
    await page.getByRole('heading', { name: 'Recent calls' }).scrollIntoViewIfNeeded();
    await stack.screenshot(page, 'directory-recent-calls-1280');

    const { page: phone } = await stack.newPage(
      { width: 390, height: 844 },
      { storageState: await page.context().storageState() },
    );
    await phone.goto('/settings');
    await phone.getByRole('tab', { name: 'Directory' }).click();
    await expect.poll(() => phone.getByRole('list', { name: 'SCIM calls' }).getByRole('listitem').count()).toBe(6);
    await phone.getByRole('heading', { name: 'Recent calls' }).scrollIntoViewIfNeeded();
    await stack.screenshot(phone, 'directory-recent-calls-390');
  });
});
