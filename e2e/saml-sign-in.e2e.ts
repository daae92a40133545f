import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSamlIdpServer } from '../src/server/test/saml-idp';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

/**
 * Issue 43, single sign-on through SAML 2.0 (decision 062), in Chromium against a real identity
 * provider on loopback (samlify, its own keys): an admin pastes the provider's metadata in
 * Settings → Single sign-on and sees our entity id and ACS URL to copy; a new person types their
 * address on /login, goes through the provider, whose page POSTs the signed response to our ACS
 * from its own origin, and lands in the organization.
 */

const DESKTOP = { width: 1280, height: 800 };
let stack: Stack;
let organizationId = '';
let idp: Awaited<ReturnType<typeof startSamlIdpServer>>;

beforeAll(async () => {
  stack = await startStack();
  idp = await startSamlIdpServer(() => `${stack.url}/api/sso/saml/${organizationId}/metadata`);
});

afterAll(async () => {
  await idp?.close();
  await stack?.stop();
});

describe('SAML sign-in', () => {
  it('an admin pastes the provider metadata; a new person signs in through the provider and lands in the organization', async () => {
    const tag = Date.now().toString(36);
    const domain = `saml-${tag}.example`;
    const orgName = `Harbor SAML ${tag}`;
    const admin = await stack.newPage(DESKTOP);
    organizationId = (await registerThroughUi(admin.page, uniqueAccount('samladmin'), orgName)) ?? '';
    expect(organizationId).not.toBe('');
    // The domain's proof is verified-domains.e2e.ts's journey: here it is verified already.
    await stack.sql(
      `insert into organization_domains (organization_id, domain, verification_token, status, verified_at, verified_by)
       values ($1, $2, 'e2e', 'verified', now(), 'dns')`,
      [organizationId, domain],
    );

    const page = admin.page;
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Single sign-on' }).click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Protocol' }).isVisible()).toBe(true);
    await page.getByRole('combobox', { name: 'Protocol' }).click();
    await page.getByRole('option', { name: 'SAML 2.0' }).click();
    const entityId = page.getByLabel('Entity id (audience) to register at your provider');
    await expect.poll(() => entityId.isVisible()).toBe(true);
    expect(await entityId.inputValue()).toBe(`${stack.url}/api/sso/saml/${organizationId}/metadata`);
    expect(await page.getByLabel('Assertion consumer service (ACS) URL, HTTP-POST').inputValue()).toBe(
      `${stack.url}/api/sso/saml/${organizationId}/acs`,
    );
    // Broken metadata: the reason at the field, nothing saved.
    await page.getByLabel("Or your provider's metadata XML").fill('<EntityDescriptor');
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await expect.poll(() => page.getByText('The metadata is not well-formed XML').isVisible()).toBe(true);

    await page.getByLabel("Or your provider's metadata XML").fill(idp.idp.metadataXml);
    await page.getByRole('switch', { name: 'Single sign-on is on' }).click();
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await expect.poll(() => page.getByTestId('saml-read-from-metadata').isVisible()).toBe(true);
    await expect.poll(() => page.getByText(idp.idp.entityId).isVisible()).toBe(true);
    await stack.screenshot(page, 'saml-settings-desktop');

    // A new person, in a browser of their own.
    const person = await stack.newPage(DESKTOP);
    const email = `lena.${tag}@${domain}`;
    idp.signInAs(email);
    let acsRequest: Request | undefined;
    person.page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/acs')) acsRequest = request;
    });
    await person.page.goto('/login');
    await person.page.getByLabel('Email').fill(email);
    const offer = person.page.getByRole('link', { name: 'Continue with single sign-on' });
    await expect.poll(() => offer.isVisible()).toBe(true);
    await offer.click();
    // Through the provider's form (a cross-site POST to our ACS) and back: signed in, in the organization.
    await expect
      .poll(() => person.page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    await expect.poll(() => person.page.getByText(orgName).first().isVisible()).toBe(true);
    // The ACS took the answer because this browser kept the start's SameSite=None; Secure state
    // cookie (on http://127.0.0.1, a secure context) and sent it with the provider's form; the
    // ACS cleared it then.
    expect((await acsRequest!.allHeaders()).cookie ?? '').toMatch(/pigeonhole\.saml_state=[\w-]{20,}/);
    const cookies = await person.page.context().cookies();
    expect(cookies.find((c) => c.name === 'pigeonhole.saml_state')).toBeUndefined();
    expect(cookies.find((c) => c.name === 'pigeonhole.sid')).toBeDefined();
    const rows = await stack.sql(
      `select m.role from organization_members m join users u on u.id = m.user_id where u.email = $1 and m.organization_id = $2`,
      [email, organizationId],
    );
    expect(rows).toEqual([{ role: 'member' }]);
    await stack.screenshot(person.page, 'saml-landed-desktop');
  });
});
