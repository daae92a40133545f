import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { INTEGRATION_MESSAGES } from '../src/contract';
import type { ReceivedMail } from '../src/server/test/smtp';
import { startTeamsReceiver } from '../src/server/test/teams-receiver';
import { startStack, uniqueAccount, type Stack } from './support/stack';
import { completeHandOver } from './support/page-api';

let stack: Stack;
/** A system receiving the webhooks: answers 204 and keeps what it got. */
const hooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    hooks.push({ headers: req.headers, body });
    res.writeHead(204).end();
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // The demo organization: an admin, recipients with email addresses, Shelf A; autoNotifyRecipients on.
  // The stack runs the notification worker (NOTIFICATIONS_WORKER defaults to true outside the unit tests).
  stack = await startStack({ seedDemo: true });
});
afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

const PHONE = { width: 390, height: 844 };

/** An integration kind's add button: 'Set up Webhook' the first time, 'Add another Webhook' after. */
const addIntegration = (title: string) => new RegExp(`^(Set up|Add another) ${title.replace(/[()]/g, '\\$&')}$`);
const RECIPIENT_EMAIL = 'lucas.meyer@example.com';
const SENDER = 'Northwind Traders';

/** A GET from inside the page with the session and the selected organization, as the app sends it. */
async function api<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (target) => {
    const res = await fetch(target, {
      headers: { 'x-organization-id': localStorage.getItem('selectedOrganizationId') ?? '' },
      credentials: 'include',
    });
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    return res.json();
  }, url);
}

/** The first message to `to` whose decoded text matches, waiting for it up to `timeoutMs`. */
async function mailMatching(to: string, pattern: RegExp, timeoutMs = 20_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = stack.smtp.received.find((m) => m.to.includes(to) && pattern.test(m.text));
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = stack.smtp.received.map((m) => `${m.to.join(',')}: ${m.subject}`).join('\n');
      throw new Error(`no email to ${to} matching ${pattern} within ${timeoutMs} ms; received:\n${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function smtpPort() {
  return new URL(stack.smtp.url).port;
}

async function openIntegrations(page: Page) {
  await page.goto('/integrations');
  await expect.poll(() => page.getByRole('heading', { name: 'Integrations', level: 1 }).isVisible()).toBe(true);
}

async function toastShows(page: Page, title: string) {
  await expect.poll(() => page.getByText(title, { exact: true }).first().isVisible()).toBe(true);
}

describe('notifications that really deliver', () => {
  it('configures email, tests it, and the arrival and the receipt reach the recipient', async () => {
    const { context, page } = await stack.newPage();
    await stack.signInAsDemo(page);

    // No integration yet: the dashboard points admins at the Integrations screen (it has no sidebar link)…
    await expect.poll(() => page.getByRole('link', { name: 'Set up integrations' }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation').getByRole('link', { name: 'Integrations' }).count()).toBe(0);

    // …and so does Settings > Notifications.
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    const channels = page.getByRole('list', { name: 'Channels' });
    await expect.poll(() => channels.getByText('Not set up').first().isVisible()).toBe(true);
    await stack.screenshot(page, 'notifications-settings-channels-desktop');
    await page.getByRole('link', { name: 'Manage integrations' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Integrations', level: 1 }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/integrations');
    await expect.poll(() => page.getByText('No integrations yet').isVisible()).toBe(true);
    const emailCard = page.getByRole('group', { name: 'Email (SMTP)' });
    expect(await emailCard.getByText('Configured').count()).toBe(0);
    await stack.screenshot(page, 'notifications-integrations-empty-desktop');

    // Email through the stack's SMTP server.
    await page.getByRole('button', { name: addIntegration('Email (SMTP)') }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Email (SMTP)' });
    await dialog.getByLabel('Name', { exact: true }).fill('Front desk email');
    await dialog.getByLabel('SMTP host').fill('127.0.0.1');
    await dialog.getByLabel('Port').fill(smtpPort());
    await dialog.getByLabel('From address').fill('desk@harborview.example');
    await stack.screenshot(page, 'notifications-email-dialog-desktop');
    await dialog.getByRole('button', { name: 'Add integration' }).click();
    await toastShows(page, 'Integration added');
    const row = page.getByRole('listitem', { name: 'Front desk email' });
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.getByText(`127.0.0.1:${smtpPort()}`, { exact: false }).isVisible()).toBe(true);
    await expect.poll(() => emailCard.getByText('Configured').isVisible()).toBe(true);

    // Send test: to the signed-in admin; success with the latency.
    await row.getByRole('button', { name: 'Send test: Front desk email' }).click();
    const test = page.getByRole('dialog', { name: 'Send a test: Front desk email' });
    expect(await test.getByText(stack.demoLogin!.email).isVisible()).toBe(true);
    await test.getByRole('button', { name: 'Send test' }).click();
    const result = test.getByRole('status', { name: 'Test result' });
    await expect.poll(() => result.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await result.innerText()).toMatch(/Test sent/);
    expect(await result.innerText()).toMatch(/\d+ ms/);
    await stack.smtp.waitFor(stack.demoLogin!.email, { subject: /test/i, timeoutMs: 10_000 });
    await stack.screenshot(page, 'notifications-test-sent-desktop');
    await test.getByRole('button', { name: 'Done' }).click();

    // Log a package for Lucas Meyer (who has an email address) on Shelf A.
    await page.goto('/mail-intake');
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    await page.getByLabel('Tracking Number').fill('1Z999AA10123450001');
    await page.getByRole('combobox', { name: 'Recipient' }).fill('Luc');
    await page.getByRole('option', { name: /Lucas Meyer/ }).click();
    await page.getByLabel('Storage Location').click();
    await page.getByRole('option', { name: /^Shelf A/ }).click();
    await page.getByLabel('Sender').fill(SENDER);
    await page.getByRole('button', { name: 'Log Mail' }).click();
    await expect.poll(() => page.getByText('Logged for Lucas Meyer — 1 this session').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();

    // The arrival email reaches the SMTP server: who sent it and where it waits.
    const arrival = await mailMatching(RECIPIENT_EMAIL, new RegExp(SENDER));
    expect(`${arrival.subject}\n${arrival.text}`).toMatch(/Shelf A/);

    // The item's Messages show it as sent.
    const itemRow = page.getByRole('button', { name: new RegExp(`Package for Lucas Meyer.*From ${SENDER}`) });
    await itemRow.click();
    const details = page.getByRole('region', { name: 'Details: Package for Lucas Meyer' });
    const messages = details.getByRole('list', { name: 'Messages' });
    const arrivalEntry = messages.getByRole('listitem').filter({ hasText: 'Arrival email' });
    await expect.poll(() => arrivalEntry.isVisible(), { timeout: 15_000 }).toBe(true);
    await expect
      .poll(() => arrivalEntry.getByText('Sent', { exact: true }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await arrivalEntry.getByText(RECIPIENT_EMAIL, { exact: false }).isVisible()).toBe(true);
    // The accepted arrival message made the item Notified; the row picks that up by itself.
    const itemEntry = page.getByRole('listitem').filter({ has: itemRow });
    await expect
      .poll(() =>
        itemEntry
          .getByText('Notified', { exact: true })
          .evaluateAll((badges) => badges.some((badge) => (badge as HTMLElement).offsetParent !== null)),
      )
      .toBe(true);
    await messages.scrollIntoViewIfNeeded();
    await stack.screenshot(page, 'notifications-item-messages-desktop');

    // Hand it over: the receipt names the collector.
    await page.getByRole('button', { name: 'Actions for Package for Lucas Meyer' }).first().click();
    await page.getByRole('menuitem', { name: 'Mark Delivered' }).click();
    // The one hand-over (decision 053).
    await completeHandOver(page, 'Jordan Meyer');
    const receipt = await mailMatching(RECIPIENT_EMAIL, /Jordan Meyer/);
    expect(receipt.subject).not.toBe(arrival.subject);
    const receiptEntry = messages.getByRole('listitem').filter({ hasText: 'Receipt email' });
    await expect
      .poll(() => receiptEntry.getByText('Sent', { exact: true }).isVisible(), { timeout: 15_000 })
      .toBe(true);

    // The last-7-days figures count what went out through the integration.
    const list = await api<{ name: string; stats: { sent: number } }[]>(page, '/api/integrations');
    expect(list.find((i) => i.name === 'Front desk email')!.stats.sent).toBeGreaterThanOrEqual(2);

    // The same on a phone.
    const phone = await stack.newPage(PHONE);
    await stack.signInAsDemo(phone.page);
    await phone.page.goto('/mail-intake');
    await phone.page.getByRole('button', { name: new RegExp(`Package for Lucas Meyer.*From ${SENDER}`) }).click();
    const phoneMessages = phone.page
      .getByRole('region', { name: 'Details: Package for Lucas Meyer' })
      .getByRole('list', { name: 'Messages' });
    await expect.poll(() => phoneMessages.getByText('Receipt email').isVisible()).toBe(true);
    await phoneMessages.scrollIntoViewIfNeeded();
    await stack.screenshot(phone.page, 'notifications-item-messages-phone');
    await phone.context.close();
    await context.close();
  });

  it('adds a webhook (signing secret shown once, test, delivery log) and an API integration with keys', async () => {
    const { context, page } = await stack.newPage();
    await stack.signInAsDemo(page);
    await openIntegrations(page);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/pigeonhole`;

    await page.getByRole('button', { name: addIntegration('Webhook') }).click();
    const webhook = page.getByRole('dialog', { name: 'Add Webhook' });
    await webhook.getByLabel('Name', { exact: true }).fill('Building system');
    await webhook.getByLabel('Webhook URL').fill(url);
    await webhook.getByRole('checkbox', { name: /Item deleted/ }).uncheck();
    await webhook.getByRole('button', { name: 'Add integration' }).click();
    const reveal = page.getByRole('dialog', { name: 'Webhook signing secret' });
    await expect.poll(() => reveal.isVisible()).toBe(true);
    expect(await reveal.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toMatch(/^whsec_/);
    expect(await reveal.getByText('shown only once', { exact: false }).isVisible()).toBe(true);
    await stack.screenshot(page, 'notifications-webhook-secret-desktop');
    await reveal.getByRole('button', { name: 'I have copied it' }).click();
    const row = page.getByRole('listitem', { name: 'Building system' });
    await expect.poll(() => row.getByText('4 events', { exact: false }).isVisible()).toBe(true);

    await row.getByRole('button', { name: 'Send test: Building system' }).click();
    const test = page.getByRole('dialog', { name: 'Send a test: Building system' });
    await test.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(() => test.getByText('Test sent').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(hooks.length).toBeGreaterThan(0);
    expect(hooks.at(-1)!.headers['webhook-signature']).toMatch(/^v1,/);
    await test.getByRole('button', { name: 'Done' }).click();

    await row.getByRole('button', { name: 'More actions: Building system' }).click();
    await page.getByRole('menuitem', { name: 'Deliveries' }).click();
    const log = page.getByRole('dialog', { name: 'Deliveries: Building system' });
    await expect.poll(() => log.getByRole('table', { name: 'Deliveries' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await stack.screenshot(page, 'notifications-webhook-deliveries-desktop');
    await page.keyboard.press('Escape');

    await row.getByRole('button', { name: 'More actions: Building system' }).click();
    await page.getByRole('menuitem', { name: 'Rotate signing secret' }).click();
    await page
      .getByRole('alertdialog', { name: 'Rotate signing secret' })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    const rotated = page.getByRole('dialog', { name: 'New signing secret' });
    await expect.poll(() => rotated.isVisible()).toBe(true);
    expect(await rotated.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toMatch(/^whsec_/);
    await rotated.getByRole('button', { name: 'I have copied it' }).click();

    // API: the first key is shown once; more are made, listed by prefix and revoked from API keys.
    await page.getByRole('button', { name: addIntegration('API') }).click();
    await page.getByRole('dialog', { name: 'Add API' }).getByRole('button', { name: 'Add integration' }).click();
    const first = page.getByRole('dialog', { name: 'Your API key' });
    await expect.poll(() => first.isVisible()).toBe(true);
    const key = await first.getByRole('textbox', { name: 'API key' }).inputValue();
    expect(key.length).toBeGreaterThan(20);
    await first.getByRole('button', { name: 'I have copied it' }).click();
    const apiRow = page.getByRole('listitem', { name: 'API access' });
    await apiRow.getByRole('button', { name: 'More actions: API access' }).click();
    await page.getByRole('menuitem', { name: 'API keys' }).click();
    const keys = page.getByRole('dialog', { name: 'API keys: API access' });
    await keys.getByLabel('New key').fill('Parcel lockers');
    await keys.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => keys.getByRole('textbox', { name: 'API key' }).isVisible()).toBe(true);
    await expect
      .poll(() => keys.getByRole('list', { name: 'API keys' }).getByText('Parcel lockers').isVisible())
      .toBe(true);
    await stack.screenshot(page, 'notifications-api-keys-desktop');
    await keys.getByRole('button', { name: 'I have copied it' }).click();
    await keys.getByRole('button', { name: 'Revoke Parcel lockers' }).click();
    await page.getByRole('alertdialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke key' }).click();
    await toastShows(page, 'API key revoked');
    await expect.poll(() => keys.getByText('Revoked', { exact: true }).isVisible()).toBe(true);
    await context.close();
  });

  it('refuses a webhook with an invalid URL, switches an integration off and deletes one after confirming', async () => {
    const { context, page } = await stack.newPage();
    await stack.signInAsDemo(page);
    await openIntegrations(page);

    // Webhook: the spec's message for an invalid URL, and nothing saved.
    await page.getByRole('button', { name: addIntegration('Webhook') }).click();
    const webhook = page.getByRole('dialog', { name: 'Add Webhook' });
    await webhook.getByLabel('Webhook URL').fill('not a url');
    await webhook.getByRole('button', { name: 'Add integration' }).click();
    await expect.poll(() => webhook.getByText('Webhook URL must be a valid URL').isVisible()).toBe(true);
    expect(await webhook.getByLabel('Webhook URL').getAttribute('aria-invalid')).toBe('true');
    await stack.screenshot(page, 'notifications-webhook-invalid-desktop');
    await webhook.getByRole('button', { name: 'Cancel' }).click();
    expect(
      (await api<{ config: { webhookUrl?: string } }[]>(page, '/api/integrations')).some(
        (i) => i.config.webhookUrl === 'not a url',
      ),
    ).toBe(false);

    // An SMS integration to switch off and delete.
    await page.getByRole('button', { name: addIntegration('SMS (Twilio)') }).click();
    const sms = page.getByRole('dialog', { name: 'Add SMS (Twilio)' });
    await sms.getByLabel('Name', { exact: true }).fill('Lobby SMS');
    await sms.getByLabel('Account SID').fill('AC00000000000000000000000000000000');
    await sms.getByLabel('Auth token').fill('secret-token-123');
    await sms.getByLabel('From number').fill('+15550001111');
    await sms.getByRole('button', { name: 'Add integration' }).click();
    await toastShows(page, 'Integration added');
    const row = page.getByRole('listitem', { name: 'Lobby SMS' });
    await expect.poll(() => row.isVisible()).toBe(true);

    // The auth token is never shown again: the edit dialog keeps it masked and blank.
    await row.getByRole('button', { name: 'Edit Lobby SMS' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Lobby SMS' });
    expect(await edit.getByLabel('Auth token').inputValue()).toBe('');
    expect(await edit.getByText('Leave blank to keep the current token.', { exact: false }).isVisible()).toBe(true);
    await edit.getByRole('button', { name: 'Cancel' }).click();

    const toggle = row.getByRole('switch', { name: 'Lobby SMS active' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await toastShows(page, 'Integration off');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    const saved = await api<{ name: string; isActive: boolean }[]>(page, '/api/integrations');
    expect(saved.find((i) => i.name === 'Lobby SMS')!.isActive).toBe(false);
    await stack.screenshot(page, 'notifications-integrations-desktop');

    // Phone width.
    const phone = await stack.newPage(PHONE);
    await stack.signInAsDemo(phone.page);
    await openIntegrations(phone.page);
    await expect.poll(() => phone.page.getByRole('listitem', { name: 'Lobby SMS' }).isVisible()).toBe(true);
    await stack.screenshot(phone.page, 'notifications-integrations-phone');
    await phone.context.close();

    // Delete, after confirming.
    await row.getByRole('button', { name: 'More actions: Lobby SMS' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete integration' });
    expect(await confirm.getByText('Are you sure you want to delete Lobby SMS?', { exact: false }).isVisible()).toBe(
      true,
    );
    await confirm.getByRole('button', { name: 'Delete integration' }).click();
    await toastShows(page, 'Integration deleted');
    await expect.poll(() => row.count()).toBe(0);
    expect((await api<{ name: string }[]>(page, '/api/integrations')).some((i) => i.name === 'Lobby SMS')).toBe(false);
    await context.close();
  });

  it('shows a member the integrations read-only', async () => {
    const admin = await stack.newPage();
    await stack.signInAsDemo(admin.page);
    const member = uniqueAccount('mia');
    const status = await admin.page.evaluate(async (email) => {
      const res = await fetch('/api/user-invitations', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'x-organization-id': localStorage.getItem('selectedOrganizationId') ?? '',
        },
        credentials: 'include',
        body: JSON.stringify({ email, role: 'member' }),
      });
      return res.status;
    }, member.email);
    expect(status).toBeLessThan(300);
    const invitation = await stack.smtp.waitFor(member.email, { subject: /invit/i });
    const link = /(http:\/\/[^\s"<>]+\/auth\?invitation=[\w%-]+)/.exec(invitation.text)?.[1];
    expect(link).toBeDefined();

    const { context, page } = await stack.newPage();
    await page.goto(link!);
    await page.getByLabel('First Name').fill('Mia');
    await page.getByLabel('Last Name').fill('Member');
    await page.getByLabel('Username').fill(member.username);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByLabel('Confirm Password').fill(member.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    // Members get no set-up hint on the dashboard; the screen itself is read-only.
    expect(await page.getByRole('link', { name: 'Set up integrations' }).count()).toBe(0);
    await openIntegrations(page);
    await expect
      .poll(() => page.getByText('Only admins can add or change integrations.', { exact: false }).isVisible())
      .toBe(true);
    const row = page.getByRole('listitem', { name: 'Front desk email' });
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.getByRole('switch').isDisabled()).toBe(true);
    expect(await row.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add integration' }).count()).toBe(0);
    await stack.screenshot(page, 'notifications-integrations-member-desktop');
    await context.close();
    await admin.context.close();
  });
});

describe('a Microsoft Teams channel (decision 065)', () => {
  it('is added for one mailroom through the form, its URL never shown again, and its test card is valid', async () => {
    const teams = await startTeamsReceiver();
    const { context, page } = await stack.newPage();
    try {
      await stack.signInAsDemo(page);
      await openIntegrations(page);
      await page.getByRole('button', { name: addIntegration('Microsoft Teams') }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Microsoft Teams' });
      // No URL: the contract's message at the field, nothing saved.
      await dialog.getByRole('button', { name: 'Add integration' }).click();
      await expect.poll(() => dialog.getByText(INTEGRATION_MESSAGES.teamsUrl).isVisible()).toBe(true);
      await dialog.getByLabel('Workflows webhook URL').fill(teams.url);
      await dialog.getByRole('combobox', { name: 'Mailroom' }).click();
      const rooms = page.getByRole('option');
      await expect.poll(() => rooms.count()).toBeGreaterThan(1);
      const room = (await rooms.nth(1).innerText()).trim();
      await rooms.nth(1).click();
      await stack.screenshot(page, 'teams-integration-form-desktop');
      await dialog.getByRole('button', { name: 'Add integration' }).click();
      await toastShows(page, 'Integration added');
      const row = page.getByRole('listitem', { name: 'Teams channel' });
      await expect.poll(() => row.isVisible()).toBe(true);
      expect(await row.innerText()).toContain('127.0.0.1');
      expect(await page.content()).not.toContain('SECRETSIG');
      const saved = await api<Array<{ type: string; config: { teamsSettings?: { mailroomId?: string } } }>>(
        page,
        '/api/integrations',
      );
      const mailrooms = await api<Array<{ id: string; name: string }>>(page, '/api/mailrooms');
      expect(saved.find((i) => i.type === 'teams')?.config.teamsSettings?.mailroomId).toBe(
        mailrooms.find((m) => m.name === room)?.id,
      );

      // Send test: a card the Workflows-like receiver finds valid against the Adaptive Card schema.
      await row.getByRole('button', { name: 'Send test: Teams channel' }).click();
      const test = page.getByRole('dialog', { name: 'Send a test: Teams channel' });
      await test.getByRole('button', { name: 'Send test' }).click();
      const result = test.getByRole('status', { name: 'Test result' });
      await expect.poll(() => result.isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await result.innerText()).toMatch(/Test sent/);
      expect(teams.posts.map((p) => p.errors)).toEqual([[]]);
      await test.getByRole('button', { name: 'Done' }).click();
      await stack.screenshot(page, 'teams-integration-desktop');

      const phone = await stack.newPage(PHONE);
      await stack.signInAsDemo(phone.page);
      await openIntegrations(phone.page);
      await expect.poll(() => phone.page.getByRole('listitem', { name: 'Teams channel' }).isVisible()).toBe(true);
      await phone.page.getByRole('button', { name: 'Edit Teams channel' }).click();
      const edit = phone.page.getByRole('dialog', { name: 'Edit Teams channel' });
      expect(await edit.getByLabel('Workflows webhook URL').inputValue()).toBe('');
      expect(await edit.getByText('Leave blank to keep the current URL.', { exact: false }).isVisible()).toBe(true);
      await stack.screenshot(phone.page, 'teams-integration-edit-phone');
      await phone.context.close();
    } finally {
      await context.close();
      await teams.close();
    }
  });
});
