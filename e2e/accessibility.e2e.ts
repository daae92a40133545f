import path from 'node:path';
import axe from 'axe-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { routes } from '../src/client/app/routes';
import { registerThroughUi } from './support/register';
import { ARTIFACTS, startStack, uniqueAccount, type Stack } from './support/stack';

/**
 * Issue 14, item 3: every route of the route table (signed-out ones signed out, signed-in ones
 * signed in, the 404 page, and the dialogs a clerk opens most: Log Mail, Edit, Mark as Delivered,
 * Add Recipient) passes axe-core without a serious or critical violation, at desktop and phone
 * width, in the light and the dark theme; and the theme follows the system, can be chosen in
 * Account settings, and is on screen before the app's JavaScript runs. Each screen is written to
 * e2e/artifacts/a11y-<theme>-<width>-<screen>.png.
 */

const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const THEMES = ['light', 'dark'] as const;

/** Paths with parameters, as visited: every parameterised route needs one (the test says so). */
const SAMPLE_PATHS: Record<string, () => string> = {
  '/auth/:tab': () => '/auth/register',
  // a checkout started by ready(), on the demo provider's page (the stack has no Stripe keys)
  '/checkout/demo/:id': () => new URL(seeded.demoCheckoutUrl, stack.url).pathname,
};

interface Visit {
  /** File name part and test title. */
  name: string;
  /** The route's pattern, or the path visited. */
  route: string;
  path: () => string;
  signedIn: boolean;
  /** Opens what is looked at once the screen has settled (a dialog). */
  open?: (page: Page) => Promise<void>;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'root';

function concretePath(pattern: string): () => string {
  if (!pattern.includes(':')) return () => pattern;
  const sample = SAMPLE_PATHS[pattern];
  if (!sample) throw new Error(`The route ${pattern} has parameters: give accessibility.e2e.ts a sample path`);
  return sample;
}

const at = (path: string) => () => path;

/** Every route of the table in the state it is for ('any' both), the 404 page, and the dialogs. */
function visits(): Visit[] {
  const list: Visit[] = [];
  for (const route of routes) {
    const path = concretePath(route.path);
    const name = slug(route.path);
    if (route.access !== 'signed-in') list.push({ name: `out-${name}`, route: route.path, path, signedIn: false });
    if (route.access !== 'signed-out') list.push({ name: `in-${name}`, route: route.path, path, signedIn: true });
  }
  list.push({ name: 'out-not-found', route: '/no-such-page', path: at('/no-such-page'), signedIn: false });
  list.push({ name: 'in-not-found', route: '/no-such-page', path: at('/no-such-page'), signedIn: true });
  const openRowAction = async (page: Page, action: string) => {
    await page
      .getByRole('button', { name: /^Actions for / })
      .first()
      .click();
    await page.getByRole('menuitem', { name: action }).click();
  };
  list.push({
    name: 'in-dialog-log-mail',
    route: 'Log Mail',
    path: at('/mail-intake'),
    signedIn: true,
    open: (page) => page.getByRole('button', { name: 'Log New Mail' }).click(),
  });
  list.push({
    name: 'in-dialog-edit-mail-item',
    route: 'Edit mail item',
    path: at('/mail-intake'),
    signedIn: true,
    open: (page) => openRowAction(page, 'Edit'),
  });
  list.push({
    name: 'in-dialog-mark-delivered',
    route: 'Mark as Delivered',
    path: at('/mail-intake'),
    signedIn: true,
    open: (page) => openRowAction(page, 'Mark Delivered'),
  });
  list.push({
    name: 'in-dialog-add-recipient',
    route: 'Add Recipient',
    path: at('/recipients'),
    signedIn: true,
    open: (page) => page.getByRole('button', { name: 'Add Recipient' }).filter({ visible: true }).first().click(),
  });
  return list;
}

// ---- The stack, one organization with a few recipients and mail items (one delivered)

let stack: Stack;
let signedInState: Awaited<ReturnType<BrowserContext['storageState']>>;
let seeded: { demoCheckoutUrl: string };

async function seed(page: Page): Promise<typeof seeded> {
  const organizationId = await page.evaluate(() => localStorage.getItem('selectedOrganizationId'));
  const headers = { 'x-organization-id': organizationId ?? '' };
  const recipientIds: string[] = [];
  for (const [firstName, lastName, unit] of [
    ['Avery', 'Quinn', '4B'],
    ['Jordan', 'Okafor', '12A'],
    ['Mina', 'Castillo', '7C'],
  ] as const) {
    const res = await page.request.post('/api/recipients', {
      headers,
      data: { firstName, lastName, unit, email: `${firstName.toLowerCase()}@example.com`, recipientType: 'resident' },
    });
    expect(res.status(), await res.text()).toBe(201);
    recipientIds.push(((await res.json()) as { id: string }).id);
  }
  const items: [type: string, sender: string, courier: string][] = [
    ['package', 'Kestrel Outfitters', 'UPS'],
    ['letter', 'City Water Board', ''],
    ['package', 'Northwind Books', 'FedEx'],
    ['certified_mail', 'Harbor Legal', 'USPS'],
  ];
  const itemIds: string[] = [];
  for (const [n, [type, sender, courierCompany]] of items.entries()) {
    const res = await page.request.post('/api/mail-items', {
      headers,
      data: {
        type,
        sender,
        courierCompany: courierCompany || undefined,
        trackingNumber: `A11Y-${1000 + n}`,
        recipientId: recipientIds[n % recipientIds.length],
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    itemIds.push(((await res.json()) as { id: string }).id);
  }
  const delivered = await page.request.put(`/api/mail-items/${itemIds[0]}`, {
    headers,
    data: { status: 'delivered', collectorName: 'Avery Quinn' },
  });
  expect(delivered.ok(), await delivered.text()).toBe(true);
  const notified = await page.request.put(`/api/mail-items/${itemIds[1]}`, { headers, data: { status: 'notified' } });
  expect(notified.ok(), await notified.text()).toBe(true);

  const checkout = await page.request.post('/api/billing/create-checkout-session', {
    headers,
    data: { planId: 'professional', quantity: 5 },
  });
  expect(checkout.ok(), await checkout.text()).toBe(true);
  return { demoCheckoutUrl: ((await checkout.json()) as { url: string }).url };
}

beforeAll(async () => {
  stack = await startStack();
});

let setUp: Promise<void> | undefined;
/**
 * The signed-in person (an admin of an organization with data, and a platform operator for the
 * console), made once by whichever test runs first (expect.poll works inside tests only).
 */
function ready() {
  setUp ??= (async () => {
    const { context, page } = await stack.newPage(WIDTHS.desktop);
    const account = uniqueAccount('a11y');
    await registerThroughUi(page, account, 'Harbor View Apartments');
    seeded = await seed(page);
    await stack.sql('update users set is_super_admin = true where email = $1', [account.email]);
    signedInState = await context.storageState();
    await context.close();
  })();
  return setUp;
}
afterAll(() => stack?.stop());

// ---- Looking at a screen

/** Waits until the screen has loaded its data and finished its transitions. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect
    .poll(() =>
      page.evaluate(() => {
        const busy = [...document.querySelectorAll('[aria-busy="true"], .animate-spin')].some((el) =>
          el.checkVisibility(),
        );
        return !busy && document.querySelector('h1, h2, [role="dialog"]') !== null;
      }),
    )
    .toBe(true);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** axe-core's serious and critical violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const { axe: inPage } = window as unknown as { axe: typeof axe };
    const { violations } = await inPage.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact!,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
      }));
  });
}

function report(violations: Violation[]) {
  return violations
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes.map((n) => `    at ${n.target}\n      ${n.summary.replace(/\n/g, '\n      ')}`).join('\n'),
    )
    .join('\n');
}

/** A CSS colour (Tailwind's are oklch) as [r, g, b], through a canvas. */
function rgbOf(page: Page, colour: string) {
  return page.evaluate((css) => {
    const context = document.createElement('canvas').getContext('2d')!;
    context.fillStyle = css;
    context.fillRect(0, 0, 1, 1);
    return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  }, colour);
}

const brightness = ([r, g, b]: number[]) => (r! + g! + b!) / 3;

/** The theme on screen: the class the app (and the pre-paint script) sets on <html>. */
const themeOnScreen = (page: Page) =>
  page.evaluate(() => (document.documentElement.classList.contains('dark') ? 'dark' : 'light'));

for (const theme of THEMES) {
  for (const [width, viewport] of Object.entries(WIDTHS)) {
    describe(`axe, ${theme} theme, ${width}`, () => {
      const contexts: Partial<Record<'in' | 'out', BrowserContext>> = {};
      const pages: Partial<Record<'in' | 'out', Page>> = {};

      async function pageFor(signedIn: boolean) {
        const key = signedIn ? 'in' : 'out';
        if (!pages[key]) {
          // the system's setting, which the app follows when no theme was chosen in Account settings
          const context = await stack.browser.newContext({
            viewport,
            baseURL: stack.url,
            colorScheme: theme,
            reducedMotion: 'reduce',
            ...(signedIn ? { storageState: signedInState } : {}),
          });
          contexts[key] = context;
          pages[key] = await context.newPage();
          pages[key].setDefaultTimeout(10_000);
        }
        return pages[key];
      }

      afterAll(async () => {
        await contexts.in?.close();
        await contexts.out?.close();
      });

      for (const visit of visits()) {
        it(`${visit.signedIn ? 'signed in' : 'signed out'}: ${visit.route}`, async () => {
          await ready();
          const page = await pageFor(visit.signedIn);
          const visited = visit.path();
          await page.goto(visited);
          await settle(page);
          if (visit.open) {
            await visit.open(page);
            await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
            await settle(page);
          }
          expect(await themeOnScreen(page)).toBe(theme);
          await page.screenshot({
            path: path.join(ARTIFACTS, `a11y-${theme}-${width}-${visit.name}.png`),
            fullPage: !visit.open,
          });
          const violations = await seriousViolations(page);
          expect(violations.length, `${visited} (${theme}, ${width}):\n${report(violations)}`).toBe(0);
          if (visit.open) await page.keyboard.press('Escape');
        });
      }
    });
  }
}

describe('the theme', () => {
  it('follows the system until Account settings choose one, which is on screen before the app runs', async () => {
    await ready();
    const context = await stack.browser.newContext({
      viewport: WIDTHS.desktop,
      baseURL: stack.url,
      colorScheme: 'light',
      storageState: signedInState,
    });
    const page = await context.newPage();
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Account' }).click();
    const appearance = page.getByRole('radiogroup', { name: 'Appearance' });
    /** Clicks a tile of the Appearance choice, as a person does. */
    const choose = async (label: string) => {
      await appearance.locator('label').filter({ hasText: label }).click();
      expect(await appearance.getByRole('radio', { name: new RegExp(label) }).isChecked()).toBe(true);
    };
    expect(await appearance.getByRole('radio', { name: /System/ }).isChecked()).toBe(true);
    expect(await themeOnScreen(page)).toBe('light');

    // the system turns dark: so does the app, at once
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => themeOnScreen(page)).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => themeOnScreen(page)).toBe('light');

    // choosing Dark overrides the system and is remembered in this browser
    await choose('Dark');
    await expect.poll(() => themeOnScreen(page)).toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('pigeonhole-theme'))).toBe('dark');
    await stack.screenshot(page, 'a11y-theme-settings-dark');

    // no flash: with the app's JavaScript held back, the first paint is already dark
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/mail-intake');
    expect(await themeOnScreen(page)).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(brightness(await rgbOf(page, background)), `a dark page background, not ${background}`).toBeLessThan(40);
    await page.unroute('**/assets/*.js');

    // another tab of the same browser follows the choice
    const other = await context.newPage();
    await other.goto('/settings');
    expect(await themeOnScreen(other)).toBe('dark');
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Account' }).click();
    await choose('Light');
    await expect.poll(() => themeOnScreen(other)).toBe('light');

    // back to the system's setting
    await choose('System');
    expect(await page.evaluate(() => localStorage.getItem('pigeonhole-theme'))).toBeNull();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => themeOnScreen(page)).toBe('dark');
    await context.close();
  });

  it('keeps the landing page light when the theme is dark', async () => {
    const context = await stack.browser.newContext({
      viewport: WIDTHS.desktop,
      baseURL: stack.url,
      colorScheme: 'dark',
    });
    const page = await context.newPage();
    await page.goto('/');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).isVisible()).toBe(true);
    expect(await themeOnScreen(page)).toBe('dark');
    const colours = await page.evaluate(() => {
      const main = document.getElementById('main')!;
      const heading = document.querySelector('h1')!;
      return {
        background: getComputedStyle(main.parentElement!).backgroundColor,
        heading: getComputedStyle(heading).color,
      };
    });
    expect(await rgbOf(page, colours.background)).toEqual([255, 255, 255]);
    expect(brightness(await rgbOf(page, colours.heading)), `a dark heading, not ${colours.heading}`).toBeLessThan(60);
    await context.close();
  });
});

describe('what a screen reader is told', () => {
  it('ties form errors to their fields and announces toasts', async () => {
    await ready();
    const context = await stack.browser.newContext({
      viewport: WIDTHS.desktop,
      baseURL: stack.url,
      storageState: signedInState,
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    await page.goto('/recipients');
    await page.getByRole('button', { name: 'Add Recipient' }).filter({ visible: true }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add New Recipient' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Save Recipient' }).click();

    // the invalid field says so, and its description is the message shown under it
    const firstName = dialog.getByLabel('First Name');
    await expect.poll(() => firstName.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await firstName.getAttribute('aria-describedby'))!;
    expect(describedBy).toBeTruthy();
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toMatch(/required/i);
    const violations = await seriousViolations(page);
    expect(violations.length, report(violations)).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);

    // a toast is read out: its text lands in a live region (Radix adds one for each toast, for a second)
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Account' }).click();
    await page.evaluate(() => {
      const heard: string[] = [];
      (window as unknown as { heard: string[] }).heard = heard;
      new MutationObserver(() => {
        for (const region of document.querySelectorAll('[aria-live="polite"], [aria-live="assertive"]')) {
          if (region.textContent) heard.push(region.textContent);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByLabel('First Name').fill('Avery');
    await page.getByLabel('Last Name').fill('Quinn');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByText('Your name has been saved.').isVisible()).toBe(true);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { heard: string[] }).heard.join(' | ')))
      .toContain('Account updated');
    await context.close();
  });
});
