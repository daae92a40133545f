import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';
import { completeHandOver } from './support/page-api';

/**
 * The live desk (issue 29, decision 043): two clerks of one organization in two browsers. What
 * one does shows on the other's screen without a reload and without polling, through the
 * organization's event stream.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

/** A second clerk: registered through the app, then made a member of the demo organization. */
async function secondClerk(page: Page, organizationId: string) {
  const account = uniqueAccount('clerk');
  await registerThroughUi(page, account);
  const [user] = await stack.sql('select id from users where email = $1', [account.email]);
  await stack.sql(`insert into organization_members (organization_id, user_id, role) values ($1, $2, 'member')`, [
    organizationId,
    user!.id,
  ]);
  // The signed-in shell opens the organization's stream once, on whatever screen comes first.
  const stream = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/events');
  await page.goto('/dashboard');
  await expect.poll(() => page.getByRole('heading', { name: 'Dashboard' }).isVisible()).toBe(true);
  return stream;
}

/** Marks the page so that a reload (which would clear the mark) shows. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));
const stillMarked = (page: Page) => page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark === 1);

/** Counts the page's requests to a list (the stream aside), to show the screen did not poll. */
function countRequests(page: Page, path: string) {
  const seen: number[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === path) seen.push(Date.now());
  });
  return seen;
}

describe('two clerks at one desk', () => {
  it('one logs an item and the other sees it appear in Mail Intake; one hands it over and the other sees it leave Pending Pickups', async () => {
    const a = await stack.newPage();
    await stack.signInAsDemo(a.page);
    const organizationId = (await a.page.evaluate(() => localStorage.getItem('selectedOrganizationId')))!;
    const b = await stack.newPage();
    const stream = await secondClerk(b.page, organizationId);
    expect(stream.status()).toBe(200);
    expect(stream.headers()['content-type']).toBe('text/event-stream; charset=utf-8');

    // Clerk B watches Mail Intake (the same stream: the shell stays mounted between screens).
    await b.page.getByRole('link', { name: 'Mail Intake' }).click();
    await expect.poll(() => b.page.getByRole('heading', { name: 'Recent Mail Items' }).isVisible()).toBe(true);
    await mark(b.page);
    const listReads = countRequests(b.page, '/api/mail-items');

    // Clerk A logs a letter through the dialog.
    const sender = `Live Sender ${Date.now().toString(36)}`;
    await a.page.getByRole('link', { name: 'Mail Intake' }).click();
    await a.page.getByRole('button', { name: 'Log New Mail' }).click();
    await a.page.getByRole('combobox', { name: 'Recipient' }).fill('Luc');
    await expect.poll(() => a.page.getByRole('option', { name: /Lucas Meyer/ }).isVisible()).toBe(true);
    await a.page.getByRole('option', { name: /Lucas Meyer/ }).click();
    await a.page.getByLabel('Sender').fill(sender);
    // Quiet for a moment: B's list must not be read again until A's item exists (no polling).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(listReads).toHaveLength(0);
    await a.page.getByRole('button', { name: 'Log Mail' }).click();
    const loggedAt = Date.now();
    await expect.poll(() => a.page.getByText(/Logged for Lucas Meyer/).isVisible()).toBe(true);

    // It appears on B's screen, which was not reloaded.
    const onB = b.page.getByRole('button', { name: new RegExp(`Lucas Meyer.*From ${sender}`) });
    await expect.poll(() => onB.isVisible()).toBe(true);
    console.log(
      `live desk: the item showed on the other clerk's Mail Intake ${Date.now() - loggedAt} ms after Log Mail`,
    );
    expect(await stillMarked(b.page)).toBe(true);
    expect(listReads.length).toBeGreaterThan(0);
    await stack.screenshot(b.page, 'live-desk-intake-desktop');

    // B moves to Pending Pickups, where the item waits; A hands it over from their own screen.
    await b.page.getByRole('link', { name: 'Pending Pickups' }).click();
    const pendingOnB = b.page.getByRole('row').filter({ hasText: sender });
    await expect.poll(() => pendingOnB.isVisible()).toBe(true);
    await mark(b.page);
    await a.page.keyboard.press('Escape');
    await a.page.getByRole('link', { name: 'Pending Pickups' }).click();
    const pendingOnA = a.page.getByRole('row').filter({ hasText: sender });
    await expect.poll(() => pendingOnA.isVisible()).toBe(true);
    await pendingOnA.getByRole('button', { name: /^Delivered/ }).click();
    // The one hand-over (decision 053).
    await completeHandOver(a.page, 'Lucas Meyer');
    const handedAt = Date.now();
    await expect.poll(() => pendingOnA.count()).toBe(0);
    await expect.poll(() => pendingOnB.count()).toBe(0);
    console.log(
      `live desk: the item left the other clerk's Pending Pickups ${Date.now() - handedAt} ms after the hand-over`,
    );
    expect(await stillMarked(b.page)).toBe(true);

    // The same at phone width: B's Pending Pickups list follows A's next intake.
    await b.page.setViewportSize({ width: 390, height: 844 });
    const phoneSender = `${sender} phone`;
    await a.page.evaluate(
      async ([org, from]) => {
        const recipients = (await (
          await fetch('/api/recipients?search=Lucas', { headers: { 'x-organization-id': org! } })
        ).json()) as Array<{ id: string }>;
        const res = await fetch('/api/mail-items', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-organization-id': org! },
          body: JSON.stringify({ type: 'package', recipientId: recipients[0]!.id, sender: from }),
        });
        if (!res.ok) throw new Error(`intake answered ${res.status}`);
      },
      [organizationId, phoneSender],
    );
    const onPhone = b.page.getByRole('list', { name: 'Pending pickups' }).getByText(phoneSender);
    await expect.poll(() => onPhone.isVisible()).toBe(true);
    expect(await stillMarked(b.page)).toBe(true);
    await stack.screenshot(b.page, 'live-desk-pending-phone');
    await a.context.close();
    await b.context.close();
  });
});
