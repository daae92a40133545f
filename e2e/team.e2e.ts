import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const PHONE = { width: 390, height: 844 };

/** Registers through /register and creates an organization in onboarding; answers its id. */
async function registerAdminWithOrganization(page: Page, account: ReturnType<typeof uniqueAccount>, org: string) {
  return (await registerThroughUi(page, account, org))!;
}

async function openSettingsTab(page: Page, tab: string) {
  await page.goto('/settings');
  await page.getByRole('tab', { name: tab }).click();
}

/** Invites from Settings > User Management and answers the link read from the SMTP server. */
async function invite(page: Page, email: string) {
  await openSettingsTab(page, 'User Management');
  await page.getByRole('button', { name: 'Invite user' }).first().click();
  const send = page.getByRole('button', { name: 'Send Invitation' });
  expect(await send.isDisabled()).toBe(true); // spec §5: Send disabled while the email is empty
  await page.getByLabel('Email').fill(email);
  expect(await send.isDisabled()).toBe(false);
  await send.click();
  await expect.poll(() => page.getByText('Invitation sent', { exact: true }).isVisible()).toBe(true);
  await expect
    .poll(() => page.getByRole('list', { name: 'Pending invitations' }).getByText(email).isVisible())
    .toBe(true);
  const mail = await stack.smtp.waitFor(email, { subject: /invit/i });
  const link = /(http:\/\/[^\s"<>]+\/auth\?invitation=[\w%-]+)/.exec(mail.text)?.[1];
  expect(link).toBeDefined();
  return link!;
}

/** A call of the page's session with the organization header, as the client makes it. */
function statusOf(page: Page, url: string, organizationId: string) {
  return page.evaluate(
    async ([u, id]) => (await fetch(u!, { headers: { 'x-organization-id': id! }, credentials: 'include' })).status,
    [url, organizationId],
  );
}

async function settingsTabs(page: Page) {
  await page.goto('/settings');
  await expect.poll(() => page.getByRole('tab', { name: 'Account' }).isVisible()).toBe(true);
  return (await page.getByRole('tab').allInnerTexts()).map((t) => t.trim());
}

describe('a team run by its admin', () => {
  it('invites a member who registers through the link, is promoted, then removed', async () => {
    const admin = await stack.newPage();
    const lead = uniqueAccount('ana');
    const orgName = 'Harbor View Residences';
    const orgId = await registerAdminWithOrganization(admin.page, lead, orgName);

    // The admin sees the seat summary and an empty invitation list before inviting anyone.
    await openSettingsTab(admin.page, 'User Management');
    const seats = admin.page.getByRole('group', { name: 'Seats' });
    await expect.poll(() => seats.getByText('1 of 5 seats used.').isVisible()).toBe(true);
    await expect.poll(() => admin.page.getByText('No pending invitations').isVisible()).toBe(true);

    const invitee = uniqueAccount('bob');
    const link = await invite(admin.page, invitee.email);
    await stack.screenshot(admin.page, 'team-user-management-desktop');

    // The invitee opens the link in another browser: Register tab, email filled in and read-only.
    const member = await stack.newPage();
    await member.page.goto(link);
    await expect.poll(() => member.page.getByRole('heading', { name: `Join ${orgName}` }).isVisible()).toBe(true);
    expect(await member.page.getByRole('tab', { name: 'Register' }).getAttribute('aria-selected')).toBe('true');
    const email = member.page.getByLabel('Email');
    await expect.poll(() => email.inputValue()).toBe(invitee.email);
    expect(await email.getAttribute('readonly')).not.toBeNull();
    await stack.screenshot(member.page, 'team-invited-register-desktop');
    // Names are required when registering through an invitation.
    await member.page.getByLabel('Username').fill(invitee.username);
    await member.page.getByLabel('Password', { exact: true }).fill(invitee.password);
    await member.page.getByLabel('Confirm Password').fill(invitee.password);
    await member.page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => member.page.getByText('First name is required').isVisible()).toBe(true);
    await member.page.getByLabel('First Name').fill('Bob');
    await member.page.getByLabel('Last Name').fill('Baker');
    await member.page.getByRole('button', { name: 'Create Account' }).click();

    // Lands in the organization, as a member.
    await expect
      .poll(() => member.page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    await expect.poll(() => member.page.getByText(`Welcome to ${orgName}!`, { exact: true }).isVisible()).toBe(true);
    expect(await member.page.evaluate(() => localStorage.getItem('selectedOrganizationId'))).toBe(orgId);

    // No admin tabs; Settings opens on Notifications, read-only.
    const memberTabs = await settingsTabs(member.page);
    expect(memberTabs).toEqual(['Customization', 'Notifications', 'Mailrooms', 'Account']);
    expect(await member.page.getByRole('tab', { name: 'Notifications' }).getAttribute('aria-selected')).toBe('true');
    await expect
      .poll(() => member.page.getByText('Only admins can change notification settings.', { exact: false }).isVisible())
      .toBe(true);
    expect(await member.page.getByRole('switch', { name: 'Notify recipients automatically' }).isDisabled()).toBe(true);
    await stack.screenshot(member.page, 'team-notifications-member-desktop');
    // …and the server refuses the admin calls.
    expect(await statusOf(member.page, '/api/user-invitations', orgId)).toBe(403);
    expect(await statusOf(member.page, '/api/audit-log', orgId)).toBe(403);

    // The admin sees the new member (and no pending invitation), then promotes them.
    await openSettingsTab(admin.page, 'User Management');
    const members = admin.page.getByRole('table', { name: 'Members' });
    await expect.poll(() => members.getByText('Bob Baker').isVisible()).toBe(true);
    await expect.poll(() => seats.getByText('2 of 5 seats used.').isVisible()).toBe(true);
    await expect.poll(() => admin.page.getByText('No pending invitations').isVisible()).toBe(true);
    await admin.page.getByRole('combobox', { name: 'Role of Bob Baker' }).click();
    await admin.page.getByRole('option', { name: 'Admin' }).click();
    await expect.poll(() => admin.page.getByText('Bob Baker is now an admin.', { exact: true }).isVisible()).toBe(true);
    await stack.screenshot(admin.page, 'team-user-management-two-admins-desktop');

    // The last admin cannot be demoted... but there are two admins now, so the activity reads plainly.
    const activity = admin.page.getByRole('list', { name: 'Activity' });
    await expect
      .poll(() => activity.getByText(`invited ${invitee.email} as member`).isVisible(), { timeout: 10_000 })
      .toBe(true);
    await expect.poll(() => activity.getByText("changed Bob Baker's role from member to admin").isVisible()).toBe(true);

    // The member's open Settings picks the promotion up by itself (the organization list is polled every 10 s)…
    await expect
      .poll(() => member.page.getByRole('tab', { name: 'User Management' }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    // …and after a reload too; the server now lets them in.
    const promotedTabs = await settingsTabs(member.page);
    expect(promotedTabs).toEqual([
      'Organization',
      'Customization',
      'Notifications',
      'Mailrooms',
      'Account',
      'User Management',
      'Single sign-on',
      'Roster',
      'Directory',
      'Billing and Plans',
    ]);
    expect(await statusOf(member.page, '/api/user-invitations', orgId)).toBe(200);

    // The admin removes them, after confirming.
    await admin.page.getByRole('button', { name: 'Remove Bob Baker' }).click();
    await expect
      .poll(() => admin.page.getByText('Are you sure you want to remove this user from your organization?').isVisible())
      .toBe(true);
    await admin.page.getByRole('button', { name: 'Remove user' }).click();
    await expect
      .poll(() => admin.page.getByText('Bob Baker no longer has access.', { exact: true }).isVisible())
      .toBe(true);
    await expect.poll(() => members.getByText('Bob Baker').count()).toBe(0);
    await expect.poll(() => activity.getByText(/removed .* from the organization/).isVisible()).toBe(true);

    // Their next request for that organization is refused, and the open app tells them at once,
    // without a click: the live desk's stream ends with `removed` and the list is read again.
    expect(await statusOf(member.page, '/api/dashboard/stats', orgId)).toBe(403);
    await expect
      .poll(() => member.page.getByText(`You no longer have access to ${orgName}`, { exact: true }).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    await expect
      .poll(() => member.page.getByRole('button', { name: /create your first organization/i }).isVisible())
      .toBe(true);

    await admin.context.close();
    await member.context.close();
  });

  it('lets an existing account join by signing in through the link, or with Join when already signed in', async () => {
    const admin = await stack.newPage();
    const orgName = 'Riverside Offices';
    const orgId = await registerAdminWithOrganization(admin.page, uniqueAccount('lead'), orgName);

    // An existing account (no organization yet) signs in on the Login tab of the invitation link.
    const existing = uniqueAccount('carol');
    const carol = await stack.newPage();
    expect((await carol.page.request.post('/api/register', { data: existing })).status()).toBe(201);
    await carol.page.request.post('/api/logout');
    const link = await invite(admin.page, existing.email);
    await carol.page.goto(link);
    await carol.page.getByRole('tab', { name: 'Login' }).click();
    await expect.poll(() => carol.page.getByText(`adds you to ${orgName}`, { exact: false }).isVisible()).toBe(true);
    await carol.page.getByLabel('Email').fill(existing.email);
    await carol.page.getByLabel('Password').fill(existing.password);
    await carol.page.getByRole('button', { name: 'Sign In' }).click();
    await expect
      .poll(() => carol.page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    await expect
      .poll(() => carol.page.getByText(`You have joined ${orgName}.`, { exact: true }).isVisible())
      .toBe(true);
    expect(await carol.page.evaluate(() => localStorage.getItem('selectedOrganizationId'))).toBe(orgId);

    // A signed-in person opening an invitation gets a small "Join" screen.
    const dave = uniqueAccount('dave');
    const signedIn = await stack.newPage(PHONE);
    await signedIn.page.request.post('/api/register', { data: dave });
    await signedIn.page.request.post('/api/organizations', { data: { name: 'Dave Home' } });
    const daveLink = await invite(admin.page, dave.email);
    await signedIn.page.goto(daveLink);
    const join = signedIn.page.getByRole('button', { name: `Join ${orgName}` });
    await expect.poll(() => join.isVisible()).toBe(true);
    await stack.screenshot(signedIn.page, 'team-join-phone');
    await join.click();
    await expect
      .poll(() => signedIn.page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    expect(await signedIn.page.evaluate(() => localStorage.getItem('selectedOrganizationId'))).toBe(orgId);

    // The same link cannot be used twice.
    await signedIn.page.goto(daveLink);
    await expect
      .poll(() => signedIn.page.getByText('This invitation is no longer valid').isVisible(), { timeout: 10_000 })
      .toBe(true);

    // An unknown token on /auth says so, and still offers an account.
    const stranger = await stack.newPage();
    await stranger.page.goto('/auth?token=not-a-real-token');
    await expect
      .poll(() =>
        stranger.page
          .getByText('The invitation link is invalid or expired, but you can still create an account.')
          .first()
          .isVisible(),
      )
      .toBe(true);
    expect(await stranger.page.getByLabel('Email').getAttribute('readonly')).toBeNull();

    for (const p of [admin, carol, signedIn, stranger]) await p.context.close();
  });

  it('shows User Management and Notifications well on a desktop and a phone', async () => {
    const desktop = await stack.newPage();
    await registerAdminWithOrganization(desktop.page, uniqueAccount('erin'), 'Campus Mail Center');
    await invite(desktop.page, `pending-${Date.now()}@example.com`);

    await openSettingsTab(desktop.page, 'Notifications');
    const days = desktop.page.getByLabel('Remind after');
    await expect.poll(() => days.isVisible()).toBe(true);
    if (await days.isDisabled()) await desktop.page.getByRole('switch', { name: 'Send reminders' }).click();
    await expect.poll(() => days.isDisabled()).toBe(false);
    await days.fill('45');
    await desktop.page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => desktop.page.getByText('Reminder days must be between 1 and 30').isVisible()).toBe(true);
    await days.fill('5');
    await desktop.page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => desktop.page.getByText('Reminders go out after 5 days.', { exact: true }).isVisible())
      .toBe(true);
    await desktop.page.getByLabel('Pickup instructions').fill('Front desk, lobby. Mon–Fri 8:00–18:00. Bring ID.');
    await desktop.page.getByRole('button', { name: 'Save instructions' }).click();
    await expect
      .poll(() => desktop.page.getByText('Pickup instructions saved', { exact: true }).isVisible())
      .toBe(true);
    await desktop.page.reload();
    await desktop.page.getByRole('tab', { name: 'Notifications' }).click();
    await expect.poll(() => desktop.page.getByLabel('Remind after').inputValue()).toBe('5');
    await stack.screenshot(desktop.page, 'team-notifications-desktop');

    // Organization tab: the logo preview falls back when the image cannot be loaded.
    await openSettingsTab(desktop.page, 'Organization');
    await desktop.page.getByLabel('Logo URL').fill('http://127.0.0.1:9/missing.png');
    await expect
      .poll(() => desktop.page.getByText('This image could not be loaded.', { exact: false }).isVisible())
      .toBe(true);
    await desktop.page.getByLabel('Logo URL').fill('not a url');
    await desktop.page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => desktop.page.getByText('Logo URL must be a valid URL').isVisible()).toBe(true);
    await stack.screenshot(desktop.page, 'team-organization-desktop');

    // The same admin on a phone.
    const cookies = await desktop.context.cookies();
    const orgId = await desktop.page.evaluate(() => localStorage.getItem('selectedOrganizationId'));
    const phone = await stack.newPage(PHONE);
    await phone.context.addCookies(cookies);
    await phone.page.addInitScript((id) => localStorage.setItem('selectedOrganizationId', id), orgId!);
    for (const [tab, name] of [
      ['User Management', 'team-user-management-phone'],
      ['Notifications', 'team-notifications-phone'],
    ] as const) {
      await openSettingsTab(phone.page, tab);
      await expect
        .poll(() =>
          phone.page
            .getByRole('heading', { name: tab === 'Notifications' ? 'Recipient notifications' : 'Members' })
            .isVisible(),
        )
        .toBe(true);
      await phone.page.waitForTimeout(300);
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await stack.screenshot(phone.page, name);
    }
    await desktop.context.close();
    await phone.context.close();
  });
});
