import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTeamsReceiver } from '../src/server/test/teams-receiver';
import { api } from './support/page-api';
import { startStack, type Stack } from './support/stack';

/** The recipient's own page (decision 032), from the arrival email and from /my. */

let stack: Stack;
/** The demo organization's Teams channel (decision 065): a local Workflows-like receiver that checks each card. */
let teams: Awaited<ReturnType<typeof startTeamsReceiver>>;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
  teams = await startTeamsReceiver();
});
afterAll(async () => {
  await teams?.close();
  await stack?.stop();
});
let teamsAdded = false;

/** A UPS number the recipient expects (a valid check digit). */
const EXPECTED = '1Z12345E0205271686';

const linkIn = (text: string) => /https?:\/\/[^\s"]+\/my\/open#token=[\w-]+/.exec(text)?.[0];

/** The desk logs a package on a shelf for a new recipient; answers the recipient's email. */
async function deskLogsAPackage(label: string) {
  const { context, page } = await stack.newPage();
  await stack.signInAsDemo(page);
  const email = `lena.portal.${label}@example.com`;
  const recipient = await api<{ id: string }>(page, 'POST', '/api/recipients', {
    firstName: 'Lena',
    lastName: `Fischer ${label}`,
    unit: '7A',
    email,
  });
  if (!teamsAdded) {
    // A Teams channel for every mailroom: the recipient's page then offers Teams beside email.
    await api(page, 'POST', '/api/integrations', {
      name: 'Front desk channel',
      type: 'teams',
      config: { teamsSettings: { webhookUrl: teams.url, mailroomId: null } },
    });
    teamsAdded = true;
  }
  const locations = await api<Array<{ id: string; name: string }>>(page, 'GET', '/api/mailroom-locations');
  await api(page, 'POST', '/api/mail-items', {
    type: 'package',
    recipientId: recipient.id,
    trackingNumber: `1ZPORTAL${label.toUpperCase().replace(/-/g, '')}`,
    sender: 'Bookshop',
    ...(locations[0] ? { locationId: locations[0].id } : {}),
  });
  await context.close();
  return { email, location: locations[0]?.name };
}

describe("the recipient's page", () => {
  it('opens from the arrival email at phone width: the item and its shelf, the code and QR; preference, proxy and hold', async () => {
    const { email, location } = await deskLogsAPackage('phone-dark');
    const arrival = await stack.smtp.waitFor(email, { subject: /has arrived/, timeoutMs: 20_000 });
    const link = linkIn(arrival.text);
    expect(link, arrival.text).toBeDefined();

    const { context, page } = await stack.newPage({ width: 390, height: 844 }, { colorScheme: 'dark' });
    const scripts: Array<{ url: string; bytes: number }> = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() === 'script') scripts.push({ url: res.url(), bytes: (await res.body()).length });
    });
    await page.goto(link!);
    await expect.poll(() => page.getByRole('heading', { name: 'Hello Lena' }).isVisible()).toBe(true);
    // The token is gone from the address bar.
    expect(page.url()).toMatch(/\/my\/packages$/);
    const item = page.getByTestId('portal-item').first();
    await expect.poll(() => item.isVisible()).toBe(true);
    if (location) expect(await item.textContent()).toContain(location);
    expect(await item.textContent()).toContain('1ZPORTALPHONEDARK');
    expect(await page.getByTestId('pickup-code').textContent()).toMatch(/^[A-Z0-9]{3}-[A-Z0-9]{3}$/);
    expect(
      await page
        .getByRole('img', { name: /QR code of your pickup code/ })
        .locator('svg')
        .count(),
    ).toBe(1);
    await stack.screenshot(page, 'portal-page-phone-dark');
    // Its own chunks: nothing of the staff app (its shell, the organization, the query library's screens).
    expect(scripts.map((x) => x.url).filter((u) => /SignedInApp|DashboardScreen|OrganizationProvider/.test(u))).toEqual(
      [],
    );
    console.log(
      `recipient page scripts: ${scripts.length} files, ${Math.round(scripts.reduce((n, x) => n + x.bytes, 0) / 1024)} KB`,
    );

    // The arrival was announced in the Teams channel, as a card valid against the Adaptive Card schema.
    const card = teams.posts.find((p) => p.body.includes('Lena Fischer phone-dark'));
    expect(card?.errors).toEqual([]);

    // The page offers exactly what the organization has for her: email and Teams (no SMS account,
    // no phone). Teams off: email is then the last one, and cannot be turned off.
    const reach = page.getByRole('region', { name: 'How we reach you' });
    expect(await reach.getByRole('checkbox').count()).toBe(2);
    expect(await reach.getByLabel('Email', { exact: true }).isChecked()).toBe(true);
    expect(await reach.getByLabel('Microsoft Teams').isChecked()).toBe(true);
    await reach.getByLabel('Microsoft Teams').uncheck();
    await expect.poll(() => page.getByText('Saved.').isVisible()).toBe(true);
    expect(await reach.getByLabel('Email', { exact: true }).isDisabled()).toBe(true);
    await reach.scrollIntoViewIfNeeded();
    await stack.screenshot(page, 'portal-preferences-phone-dark');
    // A proxy.
    await page.getByLabel('Add a person').fill('Jonas Fischer');
    await page.getByRole('region', { name: 'Who may collect for you' }).getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Remove Jonas Fischer' }).isVisible()).toBe(true);
    // A tracking number they expect, typed as a shop's email prints it: in groups, lower case.
    await page.getByLabel('Tracking number', { exact: true }).fill(EXPECTED.toLowerCase().replace(/(.{4})/g, '$1 '));
    await page.getByLabel('What it is').fill('Rain jacket');
    await page
      .locator('form')
      .filter({ has: page.getByLabel('What it is') })
      .getByRole('button', { name: 'Add' })
      .click();
    const expectedList = page.getByRole('list', { name: 'Expected packages' });
    await expect.poll(() => expectedList.getByText('Rain jacket', { exact: false }).isVisible()).toBe(true);
    await stack.screenshot(page, 'portal-expected-phone-dark');
    // A hold, three days ahead.
    await item.getByRole('button', { name: 'Hold until…' }).click();
    const d = new Date(Date.now() + 3 * 86_400_000);
    const date = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    await item.getByLabel(/Keep it at the desk until/).fill(date);
    await item.getByRole('button', { name: 'Hold', exact: true }).click();
    await expect.poll(() => item.getByText(/Held until/).isVisible()).toBe(true);
    await stack.screenshot(page, 'portal-page-done-phone-dark');

    // The desk's next scan of that number offers her (decision 047): Enter lists her first, Enter chooses.
    const desk = await stack.newPage();
    await stack.signInAsDemo(desk.page);
    await desk.page.getByRole('link', { name: 'Mail Intake' }).first().click();
    await desk.page.getByRole('button', { name: 'Log New Mail' }).click();
    await expect
      .poll(() => desk.page.evaluate(() => document.activeElement === document.querySelector('input[data-autofocus]')))
      .toBe(true);
    await desk.page.keyboard.type(EXPECTED);
    await desk.page.keyboard.press('Enter');
    const chip = desk.page.getByTestId('expected-notice');
    await expect.poll(() => chip.isVisible()).toBe(true);
    expect(await chip.innerText()).toContain('Expected by Lena Fischer phone-dark (7A)');
    expect(await desk.page.getByRole('combobox', { name: 'Recipient' }).inputValue()).toBe('');
    await desk.page.keyboard.press('Enter');
    await expect.poll(() => desk.page.getByRole('option', { name: /Lena Fischer phone-dark/ }).isVisible()).toBe(true);
    await desk.page.keyboard.press('Enter');
    await expect
      .poll(() => desk.page.getByRole('combobox', { name: 'Recipient' }).inputValue())
      .toContain('Lena Fischer phone-dark');
    expect(await chip.innerText()).toContain('Expected by Lena Fischer phone-dark (7A) · Rain jacket');
    await stack.screenshot(desk.page, 'portal-expected-desk-scan-desktop-light');
    await desk.context.close();

    // After a reload, all of it is still there (the server kept it).
    await page.reload();
    await expect
      .poll(() =>
        page
          .getByText(/Held until/)
          .first()
          .isVisible(),
      )
      .toBe(true);
    expect(await page.getByLabel('Microsoft Teams').isChecked()).toBe(false);
    expect(await page.getByLabel('Email', { exact: true }).isChecked()).toBe(true);

    // The same link, again, in another browser: used, with the form for a new one.
    const other = await stack.newPage({ width: 390, height: 844 }, { colorScheme: 'dark' });
    await other.page.goto(link!);
    await expect
      .poll(() => other.page.getByRole('heading', { name: 'This link was already used' }).isVisible())
      .toBe(true);
    await stack.screenshot(other.page, 'portal-link-used-phone-dark');
    await other.context.close();

    // Writes faster than a person makes them (a script with this session): the page's writes have
    // a rate (decision 052), and the next one the person makes is refused plainly, with the wait.
    const statuses = await page.evaluate(async () => {
      const out: number[] = [];
      for (let i = 0; i < 25; i += 1) {
        const res = await fetch('/api/portal/preferences', {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ notifyChannels: ['email'] }),
        });
        out.push(res.status);
      }
      return out;
    });
    expect(statuses.at(-1)).toBe(429);
    // Refused: the box goes back as it was, and the page says why.
    await page.getByLabel('Microsoft Teams').click();
    const refusal = page.getByTestId('portal-rate-refusal');
    await expect.poll(() => refusal.textContent()).toMatch(/faster than the desk allows.*try again in \d+ seconds?/);
    await stack.screenshot(page, 'portal-rate-refused-phone-dark');

    // Sign out ends it (never refused for the rate).
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Your mail' }).isVisible()).toBe(true);
    await context.close();
  });

  it('asks for a link on /my and opens the page from it, at desktop and phone width, light and dark', async () => {
    for (const [label, viewport, colorScheme] of [
      ['desktop-light', { width: 1280, height: 800 }, 'light'],
      ['desktop-dark', { width: 1280, height: 800 }, 'dark'],
      ['phone-light', { width: 390, height: 844 }, 'light'],
    ] as const) {
      const { email } = await deskLogsAPackage(label);
      const { context, page } = await stack.newPage(viewport, { colorScheme });
      await page.goto('/my');
      await expect.poll(() => page.getByRole('heading', { name: 'Your mail' }).isVisible()).toBe(true);
      await stack.screenshot(page, `portal-request-${label}`);
      // A half-typed address is refused by the contract's schema on the page: nothing is sent.
      const sent: string[] = [];
      page.on('request', (req) => req.url().endsWith('/api/portal/links') && sent.push(req.method()));
      await page.getByLabel('Email address or mobile number').fill('lena@');
      await page.getByRole('button', { name: 'Send me a link' }).click();
      await expect.poll(() => page.getByText('Enter a valid email address or phone number').isVisible()).toBe(true);
      expect(sent).toEqual([]);
      await expect
        .poll(() => page.getByLabel('Email address or mobile number').evaluate((e) => e === document.activeElement))
        .toBe(true);
      await page.getByLabel('Email address or mobile number').fill(email);
      await page.getByRole('button', { name: 'Send me a link' }).click();
      await expect.poll(() => page.getByText(/If this address belongs to a recipient/).isVisible()).toBe(true);
      expect(sent).toEqual(['POST']);
      await stack.screenshot(page, `portal-request-sent-${label}`);
      const mail = await stack.smtp.waitFor(email, { subject: /Your link/, timeoutMs: 20_000 });
      const link = linkIn(mail.text);
      expect(link, mail.text).toBeDefined();
      await page.goto(link!);
      await expect.poll(() => page.getByRole('heading', { name: 'Hello Lena' }).isVisible()).toBe(true);
      await expect.poll(() => page.getByTestId('portal-item').first().isVisible()).toBe(true);
      await stack.screenshot(page, `portal-page-${label}`);
      // A forged link: the designed screen.
      await page.goto('/my/open#token=not-a-real-token');
      await expect.poll(() => page.getByRole('heading', { name: 'This link is not valid' }).isVisible()).toBe(true);
      await stack.screenshot(page, `portal-link-invalid-${label}`);
      await context.close();
    }
  });
});
