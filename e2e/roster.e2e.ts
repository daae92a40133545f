import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

/**
 * Issue 43 §3, the resident roster (decision 061), in Chromium: an admin sets up Settings → Roster
 * with a CSV served over HTTP on loopback (the stack allows private targets, as tests and a laptop
 * do; production takes HTTPS to public addresses only) behind an Authorization header, maps its
 * columns, runs it now, approves the first run's preview, and finds the residents at the desk
 * marked "Directory". The file then changes (one resident moves, one leaves): the next run shows
 * its counts and the leaver is "Left" at the desk. Screenshots of the Roster tab at 1280 and 390
 * px, and of Single sign-on and Directory at 390 px.
 */

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const TOKEN = 'Bearer e2e-roster-token';
let stack: Stack;
let server: http.Server;
let csvUrl = '';
let file = '';
const fetchedWith: Array<string | undefined> = [];

beforeAll(async () => {
  stack = await startStack();
  server = http.createServer((req, res) => {
    fetchedWith.push(req.headers.authorization);
    if (req.headers.authorization !== TOKEN) return res.writeHead(401).end('unauthorized');
    res.writeHead(200, { 'content-type': 'text/csv' }).end(file);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  csvUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/exports/residents.csv`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await stack?.stop();
});

type Resident = { id: string; first: string; last: string; apt: string };
const csvOf = (people: Resident[]) =>
  [
    'Resident ID,Given,Family,Apt,E-mail',
    ...people.map(
      (p) => `${p.id},${p.first},${p.last},${p.apt},${p.first.toLowerCase()}.${p.last.toLowerCase()}@example.com`,
    ),
  ].join('\n');

async function openRosterTab(page: Page) {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Roster' }).click();
}

const runsList = (page: Page) => page.getByRole('list', { name: 'Roster runs' });

/** Closes the toasts on screen: a screenshot is of the tab, not of the last toast. */
async function dismissToasts(page: Page, waitFor?: string) {
  const toasts = page.getByRole('region', { name: /notifications/i });
  // The run's toast comes after its list refreshed: wait for it before closing it.
  if (waitFor) await expect.poll(() => toasts.getByText(waitFor, { exact: true }).isVisible()).toBe(true);
  const close = toasts.getByRole('button', { name: 'Close' });
  for (const button of await close.all()) await button.click().catch(() => undefined);
  await expect.poll(() => close.count()).toBe(0);
}

describe('the resident roster', () => {
  it('an admin sets up the roster, approves the first run; the next run moves one resident and marks one as left', async () => {
    const tag = Date.now().toString(36);
    const people: Resident[] = [
      { id: 'R-100', first: 'Amara', last: `Osei${tag}`, apt: '101' },
      { id: 'R-200', first: 'Bruno', last: `Keller${tag}`, apt: '202' },
      { id: 'R-300', first: 'Chiara', last: `Rossi${tag}`, apt: '303' },
    ];
    file = csvOf(people);
    const { page } = await stack.newPage(DESKTOP);
    await registerThroughUi(page, uniqueAccount('roster'), `Maple Court ${tag}`);

    await openRosterTab(page);
    await page.getByRole('button', { name: 'Set up the roster' }).click();
    await page.getByLabel('URL', { exact: true }).fill(csvUrl);
    await page.getByLabel('Header name').fill('Authorization');
    await page.getByLabel('Header value').fill(TOKEN);
    // The file's own headers, mapped.
    await page.getByLabel('Resident id column').fill('Resident ID');
    await page.getByLabel('First name column').fill('Given');
    await page.getByLabel('Last name column').fill('Family');
    await page.getByLabel('Email column').fill('E-mail');
    await page.getByLabel('Unit column').fill('Apt');
    // One leaver in three is a third of the roster: above 50 % a run would wait for approval.
    await page.getByLabel('Approval share (%)').fill('50');
    await page.getByRole('button', { name: 'Add the roster source' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Run now' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(csvUrl).isVisible()).toBe(true);

    // The first run waits for approval with its preview.
    await page.getByRole('button', { name: 'Run now' }).click();
    await expect
      .poll(() => page.getByText('The first run of a roster waits for your approval.').isVisible())
      .toBe(true);
    expect(fetchedWith.at(-1)).toBe(TOKEN);
    await expect.poll(() => page.getByRole('heading', { name: 'Added (3)' }).isVisible()).toBe(true);
    for (const p of people) {
      await expect.poll(() => page.getByText(`${p.first} ${p.last} (${p.apt})`).isVisible()).toBe(true);
    }
    await expect.poll(() => runsList(page).getByText('Waiting for approval').isVisible()).toBe(true);
    await dismissToasts(page, 'Waiting for approval');
    await page.setViewportSize(PHONE);
    await stack.screenshot(page, 'roster-preview-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Approve and apply' }).click();
    await expect.poll(() => runsList(page).getByText('Applied', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Approve and apply' }).count()).toBe(0);

    // At the desk: the three residents, kept by the roster.
    await page.goto('/recipients');
    const table = page.getByRole('table');
    const rowOf = (p: Resident) => table.getByRole('row').filter({ hasText: p.last });
    for (const p of people) {
      await expect.poll(() => rowOf(p).getByText('Directory', { exact: true }).isVisible()).toBe(true);
      await expect.poll(() => rowOf(p).getByText('Active', { exact: true }).isVisible()).toBe(true);
      expect(await rowOf(p).locator('[data-managed-by="roster"]').count()).toBe(1);
    }

    // The export changes: Bruno moves to 505, Chiara moves out.
    file = csvOf([people[0]!, { ...people[1]!, apt: '505' }]);
    await openRosterTab(page);
    await page.getByRole('button', { name: 'Run now' }).click();
    const latest = runsList(page).getByRole('listitem').first();
    await expect
      .poll(() => latest.getByText('0 added · 0 changed · 1 moved · 1 left · 1 unchanged').isVisible())
      .toBe(true);
    await expect.poll(() => latest.getByText('Applied', { exact: true }).isVisible()).toBe(true);
    expect(await runsList(page).getByRole('listitem').count()).toBe(2);

    await dismissToasts(page, 'Applied');
    await stack.screenshot(page, 'roster-settings-desktop');
    await page.setViewportSize(PHONE);
    await runsList(page).scrollIntoViewIfNeeded();
    await stack.screenshot(page, 'roster-settings-phone');
    // Nothing wider than the phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The other two directory tabs at 390 px.
    await page.getByRole('tab', { name: 'Single sign-on' }).click();
    await expect.poll(() => page.getByLabel('Issuer or discovery URL').isVisible()).toBe(true);
    await stack.screenshot(page, 'sso-settings-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole('tab', { name: 'Directory' }).click();
    await expect.poll(() => page.getByLabel('SCIM base URL (Tenant URL)').isVisible()).toBe(true);
    await stack.screenshot(page, 'directory-settings-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize(DESKTOP);

    // At the desk: Bruno in 505, Chiara left (active through the grace period, marked "Left").
    await page.goto('/recipients');
    await expect.poll(() => rowOf(people[1]!).getByText('505').isVisible()).toBe(true);
    await expect.poll(() => rowOf(people[2]!).getByText('Left', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => rowOf(people[2]!).getByText('Directory', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => rowOf(people[0]!).getByText('Active', { exact: true }).isVisible()).toBe(true);
  }, 120_000);
});
