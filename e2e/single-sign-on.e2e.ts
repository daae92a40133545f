import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OIDC_CALLBACK_PATH } from '../src/contract/sso';
import { startTestOidcProvider } from '../src/server/modules/sso/test-oidc-provider';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

/**
 * Issue 43, single sign-on through OpenID Connect (decision 059), in Chromium against a real
 * provider on loopback (oidc-provider): an admin sets it up in Settings → Single sign-on (tests the
 * issuer, copies nothing by hand: the redirect URI is registered at the provider beforehand), then
 * a new person types their address on /login, is offered "Continue with single sign-on", goes
 * through the provider and lands in the organization.
 */

const DESKTOP = { width: 1280, height: 800 };
let stack: Stack;
let idp: Awaited<ReturnType<typeof startTestOidcProvider>>;

beforeAll(async () => {
  stack = await startStack({ env: { SSO_ALLOW_HTTP_ISSUERS: 'true' } });
  idp = await startTestOidcProvider([
    {
      client_id: 'pigeonhole-e2e',
      client_secret: 'e2e-provider-secret',
      redirect_uris: [`${stack.url}${OIDC_CALLBACK_PATH}`],
    },
  ]);
});

afterAll(async () => {
  await idp?.close();
  await stack?.stop();
});

describe('single sign-on', () => {
  it('an admin sets up OIDC; a new person signs in through the provider and lands in the organization', async () => {
    const tag = Date.now().toString(36);
    const domain = `sso-${tag}.example`;
    const orgName = `Harbor SSO ${tag}`;
    const admin = await stack.newPage(DESKTOP);
    const organizationId = await registerThroughUi(admin.page, uniqueAccount('ssoadmin'), orgName);
    // The domain's proof is verified-domains.e2e.ts's journey: here it is verified already.
    await stack.sql(
      `insert into organization_domains (organization_id, domain, verification_token, status, verified_at, verified_by)
       values ($1, $2, 'e2e', 'verified', now(), 'dns')`,
      [organizationId, domain],
    );

    const page = admin.page;
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Single sign-on' }).click();
    await expect.poll(() => page.getByLabel('Issuer or discovery URL').isVisible()).toBe(true);
    expect(await page.getByLabel('Redirect URI (register it at your provider)').inputValue()).toBe(
      `${stack.url}${OIDC_CALLBACK_PATH}`,
    );
    // Saved without a client id: the contract's message at the field, nothing sent.
    await page.getByLabel('Issuer or discovery URL').fill(idp.issuer);
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await expect.poll(() => page.getByText('Enter the client id the provider gave Pigeonhole').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect.poll(() => page.getByText(`Found the provider ${idp.issuer}`).isVisible()).toBe(true);
    await page.getByLabel('Client id').fill('pigeonhole-e2e');
    await page.getByLabel('Client secret').fill('e2e-provider-secret');
    await page.getByRole('switch', { name: 'Single sign-on is on' }).click();
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await expect.poll(() => page.getByText('A secret is set. Leave blank to keep it.').isVisible()).toBe(true);
    await stack.screenshot(page, 'single-sign-on-settings-desktop');

    // A new person, in a browser of their own.
    const person = await stack.newPage(DESKTOP);
    const email = `rosa.${tag}@${domain}`;
    idp.signInAs({ sub: `rosa-${tag}`, email, email_verified: true, given_name: 'Rosa', family_name: 'Park' });
    await person.page.goto('/login');
    await person.page.getByLabel('Email').fill(email);
    const offer = person.page.getByRole('link', { name: 'Continue with single sign-on' });
    await expect.poll(() => offer.isVisible()).toBe(true);
    await stack.screenshot(person.page, 'single-sign-on-offer-desktop');
    await offer.click();
    // Through the provider and back: signed in, in the organization (its only one).
    await expect
      .poll(() => person.page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    await expect.poll(() => person.page.getByText(orgName).first().isVisible()).toBe(true);
    const rows = await stack.sql(
      `select m.role from organization_members m join users u on u.id = m.user_id where u.email = $1 and m.organization_id = $2`,
      [email, organizationId],
    );
    expect(rows).toEqual([{ role: 'member' }]);
    await stack.screenshot(person.page, 'single-sign-on-landed-desktop');

    // The admin now requires single sign-on, naming themself the break-glass admin.
    await page.getByLabel('Break-glass admin (may still use a password)').click();
    await page.getByRole('option', { name: /^ssoadmin/ }).click();
    await page.getByRole('switch', { name: 'Require single sign-on' }).click();
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await expect
      .poll(
        async () =>
          (await stack.sql(`select require_sso from sso_connections where organization_id = $1`, [organizationId]))[0],
      )
      .toEqual({ require_sso: true });
  });
});
