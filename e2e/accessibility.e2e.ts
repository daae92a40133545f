import fs from 'node:fs/promises';
import path from 'node:path';
import axe from 'axe-core';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { routes } from '../src/client/app/routes';
import { handOverBody } from './support/page-api';
import { registerThroughUi } from './support/register';
import { ARTIFACTS, finishTransitions, startStack, uniqueAccount, type Stack } from './support/stack';

/**
 * Issue 14, item 3: every route of the route table (signed-out ones signed out, signed-in ones
 * signed in, the 404 page), the dialogs (Log Mail, Edit, the hand-over, Add Recipient, the
 * integrations' set-up dialogs, Invite user, Settings' Single sign-on, two-factor set-up with its QR code, turning it off,
 * new recovery codes) and the popups while open (the organization menu, row actions menus, the
 * selects and the recipient list of Log Mail and Invite user, tooltips) pass axe-core without a
 * serious or critical violation, at desktop and phone width, in the light and the dark theme.
 * Form controls' edges, their focus indicators and buttons' focus rings have 3:1 against what they
 * sit on (WCAG 1.4.11, which axe does not check); the theme follows the system, can be chosen in
 * Account settings, and is on screen, with the browser's theme-color, before the app's JavaScript
 * runs. Each screen is written to e2e/artifacts/a11y-<theme>-<width>-<screen>.png.
 */

const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const THEMES = ['light', 'dark'] as const;

/** Paths with parameters, as visited: every parameterised route needs one (the test says so). */
const SAMPLE_PATHS: Record<string, () => string> = {
  '/auth/:tab': () => '/auth/register',
  // a checkout started by ready(), on the demo provider's page (the stack has no Stripe keys)
  '/checkout/demo/:id': () => new URL(seeded.demoCheckoutUrl, stack.url).pathname,
};

/** Signed out, signed in (an admin and platform operator), or signed in with two-factor on. */
type Who = 'out' | 'in' | 'guarded';

interface Visit {
  /** File name part and test title. */
  name: string;
  /** The route's pattern, or the path visited. */
  route: string;
  path: () => string;
  who: Who;
  /** Opens what is looked at once the screen has settled (a dialog, a menu, a list, a tooltip). */
  open?: (page: Page) => Promise<void>;
  /** The role of what `open` shows, waited for before axe looks; a dialog unless said (a tab's panel for a tab). */
  shows?: 'dialog' | 'menu' | 'listbox' | 'tooltip' | 'tabpanel';
  /** Only at this width: the control is not there at the other. */
  only?: keyof typeof WIDTHS;
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

const settingsTab = async (page: Page, tab: string) => {
  await page.getByRole('tab', { name: tab }).click();
  await settle(page);
};

/** Every route of the table in the state it is for ('any' both), the 404 page, the dialogs and popups. */
function visits(): Visit[] {
  const list: Visit[] = [];
  for (const route of routes) {
    const path = concretePath(route.path);
    const name = slug(route.path);
    if (route.access !== 'signed-in') list.push({ name: `out-${name}`, route: route.path, path, who: 'out' });
    if (route.access !== 'signed-out') list.push({ name: `in-${name}`, route: route.path, path, who: 'in' });
  }
  list.push({ name: 'out-not-found', route: '/no-such-page', path: at('/no-such-page'), who: 'out' });
  list.push({ name: 'in-not-found', route: '/no-such-page', path: at('/no-such-page'), who: 'in' });
  const openRowAction = async (page: Page, action: string) => {
    await page
      .getByRole('button', { name: /^Actions for / })
      .first()
      .click();
    await page.getByRole('menuitem', { name: action }).click();
  };
  const openLogMail = async (page: Page) => {
    await page.getByRole('button', { name: 'Log New Mail' }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    await settle(page);
  };
  list.push(
    { name: 'in-dialog-log-mail', route: 'Log Mail', path: at('/mail-intake'), who: 'in', open: openLogMail },
    {
      name: 'in-dialog-edit-mail-item',
      route: 'Edit mail item',
      path: at('/mail-intake'),
      who: 'in',
      open: (page) => openRowAction(page, 'Edit'),
    },
    {
      name: 'in-dialog-mark-delivered',
      route: 'Hand over (Mark Delivered in the menu)',
      path: at('/mail-intake'),
      who: 'in',
      open: (page) => openRowAction(page, 'Mark Delivered'),
    },
    {
      name: 'in-dialog-add-recipient',
      route: 'Add Recipient',
      path: at('/recipients'),
      who: 'in',
      open: (page) => page.getByRole('button', { name: 'Add Recipient' }).filter({ visible: true }).first().click(),
    },
  );

  // the integrations' set-up dialogs, one per kind
  for (const kind of ['Email (SMTP)', 'SMS (Twilio)', 'Webhook', 'API']) {
    list.push({
      name: `in-dialog-set-up-${slug(kind)}`,
      route: `Set up ${kind}`,
      path: at('/integrations'),
      who: 'in',
      open: (page) => page.getByRole('button', { name: `Set up ${kind}` }).click(),
    });
  }

  // the team: inviting someone, with the role list open
  const openInvite = async (page: Page) => {
    await settingsTab(page, 'User Management');
    await page.getByRole('button', { name: 'Invite user' }).filter({ visible: true }).first().click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    await settle(page);
  };
  list.push(
    { name: 'in-dialog-invite-user', route: 'Invite user', path: at('/settings'), who: 'in', open: openInvite },
    {
      name: 'in-select-invite-role',
      route: 'Invite user, Role list open',
      path: at('/settings'),
      who: 'in',
      shows: 'listbox',
      open: async (page) => {
        await openInvite(page);
        await page.getByRole('dialog').getByRole('combobox', { name: 'Role' }).click();
      },
    },
  );

  // Settings > Single sign-on: the verified domains, one pending with its TXT record to copy
  list.push({
    name: 'in-settings-single-sign-on',
    route: 'Settings, Single sign-on',
    path: at('/settings'),
    who: 'in',
    shows: 'tabpanel',
    open: async (page) => {
      await settingsTab(page, 'Single sign-on');
      await expect.poll(() => page.getByRole('list', { name: 'Email domains' }).isVisible()).toBe(true);
    },
  });

  // two-factor: set up (password, then the QR code and the code), and with it on: turn off, new codes
  const openTwoFactor = async (page: Page, button: string) => {
    await settingsTab(page, 'Account');
    await page.getByRole('button', { name: button }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    await settle(page);
  };
  list.push(
    {
      name: 'in-dialog-two-factor-set-up',
      route: 'Set up two-factor',
      path: at('/settings'),
      who: 'in',
      open: (page) => openTwoFactor(page, 'Set up two-factor'),
    },
    {
      name: 'in-dialog-two-factor-qr-code',
      route: 'Set up two-factor, QR code and code',
      path: at('/settings'),
      who: 'in',
      open: async (page) => {
        await openTwoFactor(page, 'Set up two-factor');
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Current Password').fill(seeded.password);
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await expect.poll(() => dialog.getByRole('img', { name: /QR code/ }).isVisible()).toBe(true);
        await expect.poll(() => dialog.getByLabel('Authentication code').isVisible()).toBe(true);
      },
    },
    {
      name: 'guarded-dialog-two-factor-off',
      route: 'Turn off two-factor',
      path: at('/settings'),
      who: 'guarded',
      open: (page) => openTwoFactor(page, 'Turn off'),
    },
    {
      name: 'guarded-dialog-new-recovery-codes',
      route: 'New recovery codes',
      path: at('/settings'),
      who: 'guarded',
      open: (page) => openTwoFactor(page, 'New recovery codes'),
    },
    {
      name: 'guarded-dialog-new-recovery-codes-shown',
      route: 'New recovery codes, shown',
      path: at('/settings'),
      who: 'guarded',
      open: async (page) => {
        await openTwoFactor(page, 'New recovery codes');
        const dialog = page.getByRole('dialog');
        // a recovery code (an app's code works once per 30 seconds): the new ones replace them all
        await dialog.getByLabel(/Code from your app/).fill(guarded.recoveryCodes[0]!);
        await dialog.getByRole('button', { name: 'Create new codes' }).click();
        const codes = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
        await expect.poll(() => codes.count()).toBe(10);
        guarded.recoveryCodes = await codes.allInnerTexts();
      },
    },
  );

  // menus open
  list.push(
    {
      name: 'in-menu-organization',
      route: 'Organization menu',
      path: at('/dashboard'),
      who: 'in',
      shows: 'menu',
      open: (page) => page.getByRole('button', { name: /^Select organization/ }).click(),
    },
    {
      name: 'in-menu-mail-item-actions',
      route: 'Mail item actions menu',
      path: at('/mail-intake'),
      who: 'in',
      shows: 'menu',
      open: (page) =>
        page
          .getByRole('button', { name: /^Actions for / })
          .first()
          .click(),
    },
    {
      name: 'in-menu-recipient-actions',
      route: 'Recipient actions menu',
      path: at('/recipients'),
      who: 'in',
      shows: 'menu',
      open: (page) =>
        page
          .getByRole('button', { name: /^More actions for / })
          .filter({ visible: true })
          .first()
          .click(),
    },
    {
      name: 'in-menu-add-integration',
      route: 'Add integration menu',
      path: at('/integrations'),
      who: 'in',
      shows: 'menu',
      open: (page) => page.getByRole('button', { name: 'Add integration' }).click(),
    },
  );

  // lists open: a select and the recipient search of Log Mail
  list.push(
    {
      name: 'in-select-log-mail-type',
      route: 'Log Mail, Type list open',
      path: at('/mail-intake'),
      who: 'in',
      shows: 'listbox',
      open: async (page) => {
        await openLogMail(page);
        await page.getByRole('dialog').getByRole('combobox', { name: 'Type' }).click();
      },
    },
    {
      name: 'in-combobox-log-mail-recipient',
      route: 'Log Mail, Recipient list open',
      path: at('/mail-intake'),
      who: 'in',
      shows: 'listbox',
      open: async (page) => {
        await openLogMail(page);
        await page.getByRole('dialog').getByRole('combobox', { name: 'Recipient' }).fill('a');
        await expect.poll(() => page.getByRole('option').first().isVisible()).toBe(true);
      },
    },
  );

  // tooltips: Logout's on keyboard focus, a sidebar link's on hover (the icon rail, below md)
  list.push(
    {
      name: 'in-tooltip-logout',
      route: 'Logout tooltip',
      path: at('/dashboard'),
      who: 'in',
      shows: 'tooltip',
      open: async (page) => {
        await page.keyboard.press('Shift');
        await page.getByRole('button', { name: 'Logout' }).focus();
      },
    },
    {
      name: 'in-tooltip-sidebar-link',
      route: 'Sidebar link tooltip',
      path: at('/dashboard'),
      who: 'in',
      shows: 'tooltip',
      only: 'phone',
      open: (page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Mail Intake' }).hover(),
    },
  );
  return list;
}

// ---- The stack, one organization with a few recipients and mail items (one delivered)

let stack: Stack;
type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
let signedInState: StorageState;
let seeded: { demoCheckoutUrl: string; password: string };
/** A second admin, with two-factor on, and the recovery codes it holds now. */
let guarded: { state: StorageState; recoveryCodes: string[] };

async function seed(page: Page): Promise<Omit<typeof seeded, 'password'>> {
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
  // Delivered only through the hand-over (decision 053).
  const delivered = await page.request.post('/api/handovers', {
    headers,
    data: await handOverBody([itemIds[0]!], 'Avery Quinn', 'Collects for the household'),
  });
  expect(delivered.ok(), await delivered.text()).toBe(true);
  const notified = await page.request.put(`/api/mail-items/${itemIds[1]}`, { headers, data: { status: 'notified' } });
  expect(notified.ok(), await notified.text()).toBe(true);

  // Settings > Single sign-on shows a pending domain with its TXT record (issue 43).
  const domain = await page.request.post('/api/domains', { headers, data: { domain: 'harbor-view.example' } });
  expect(domain.status(), await domain.text()).toBe(201);

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
 * console) and a second admin who turned two-factor on, made once by whichever test runs first
 * (expect.poll works inside tests only).
 */
function ready() {
  setUp ??= (async () => {
    const { context, page } = await stack.newPage(WIDTHS.desktop);
    const account = uniqueAccount('a11y');
    await registerThroughUi(page, account, 'Harbor View Apartments');
    seeded = { ...(await seed(page)), password: account.password };
    // A platform operator with a verified address (two-factor set-up waits for one).
    await stack.sql('update users set is_super_admin = true, email_verified_at = now() where email = $1', [
      account.email,
    ]);
    signedInState = await context.storageState();
    await context.close();

    const second = await stack.newPage(WIDTHS.desktop);
    const guard = uniqueAccount('a11yguard');
    await registerThroughUi(second.page, guard, 'Guarded Gardens');
    await stack.sql('update users set email_verified_at = now() where email = $1', [guard.email]);
    const setup = await second.page.request.post('/api/auth/two-factor/setup', { data: { password: guard.password } });
    expect(setup.ok(), await setup.text()).toBe(true);
    const { secret } = (await setup.json()) as { secret: string };
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
    const enabled = await second.page.request.post('/api/auth/two-factor/enable', { data: { code } });
    expect(enabled.ok(), await enabled.text()).toBe(true);
    const { recoveryCodes } = (await enabled.json()) as { recoveryCodes: string[] };
    guarded = { state: await second.context.storageState(), recoveryCodes };
    await second.context.close();
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
  await finishTransitions(page);
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

/** The browser's colour for its own chrome (address bar, title bar): <meta name="theme-color">. */
const browserColour = (page: Page) =>
  page.evaluate(() => document.querySelector('meta[name="theme-color"]')?.getAttribute('content'));
/** The brand indigo in light, the dark canvas (slate-950) in dark. */
const BROWSER_COLOURS = { light: '#4f46e5', dark: '#020618' } as const;

for (const theme of THEMES) {
  for (const [width, viewport] of Object.entries(WIDTHS)) {
    describe(`axe, ${theme} theme, ${width}`, () => {
      const contexts: Partial<Record<Who, BrowserContext>> = {};
      const pages: Partial<Record<Who, Page>> = {};

      async function pageFor(key: Who) {
        if (!pages[key]) {
          const storageState = { out: undefined, in: signedInState, guarded: guarded.state }[key];
          // the system's setting, which the app follows when no theme was chosen in Account settings
          const context = await stack.browser.newContext({
            viewport,
            baseURL: stack.url,
            colorScheme: theme,
            reducedMotion: 'reduce',
            ...(storageState ? { storageState } : {}),
          });
          contexts[key] = context;
          pages[key] = await context.newPage();
          pages[key].setDefaultTimeout(10_000);
        }
        return pages[key];
      }

      afterAll(async () => {
        for (const context of Object.values(contexts)) await context.close();
      });

      const who = { out: 'signed out', in: 'signed in', guarded: 'signed in, two-factor on' } as const;
      for (const visit of visits().filter((v) => !v.only || v.only === width)) {
        it(`${who[visit.who]}: ${visit.route}`, async () => {
          await ready();
          const page = await pageFor(visit.who);
          const visited = visit.path();
          await page.goto(visited);
          await settle(page);
          if (visit.open) {
            await visit.open(page);
            const shown = page.getByRole(visit.shows ?? 'dialog').filter({ visible: true });
            await expect
              .poll(() => shown.count(), { message: `${visit.route}: no ${visit.shows ?? 'dialog'} open` })
              .toBeGreaterThan(0);
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

// ---- Non-text contrast (WCAG 1.4.11: 3:1), which axe does not check

interface Contrast {
  /** The control: its kind and name. */
  control: string;
  state: 'rest' | 'focus';
  /** The colour measured (a border, a ring, an outline, a track) and what it sits on, as rgb(). */
  colour: string;
  against: string;
  ratio: number;
}

/**
 * The form controls on screen (text fields, select triggers, comboboxes, checkboxes, switches): the
 * colour of each one's edge at rest, then of its focus indicator, against the background beside it
 * (the first opaque background behind it, with any tints on the way composited); and the focus ring
 * of each button. A native checkbox draws its own box: the most contrasting pixel of its edge is
 * measured from a screenshot instead. With a dialog open, the dialog's controls only.
 */
async function controlContrasts(page: Page, where: string): Promise<Contrast[]> {
  // a keyboard event first, so that focusing from script shows the focus as Tab would
  await page.keyboard.press('Shift');
  const measured = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    /** Paints the colours in order (each over the last) and answers the result. */
    const paint = (...colours: string[]) => {
      context.clearRect(0, 0, 1, 1);
      for (const colour of ['#fff', ...colours]) {
        context.fillStyle = colour;
        context.fillRect(0, 0, 1, 1);
      }
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
      return `rgb(${r}, ${g}, ${b})`;
    };
    const transparent = (colour: string) => paint('#000', colour) === 'rgb(0, 0, 0)' && paint(colour) === paint();
    /** The backgrounds behind an element, outermost first, down to its first opaque one. */
    const behind = (el: Element | null) => {
      const layers: string[] = [];
      for (let node = el; node; node = node.parentElement) {
        const colour = getComputedStyle(node).backgroundColor;
        if (transparent(colour)) continue;
        layers.unshift(colour);
        if (paint('#000', colour) === paint(colour)) break; // opaque
      }
      return layers;
    };
    const channel = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    const luminance = (rgb: string) => {
      const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
      return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    };
    const ratio = (a: string, b: string) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return Math.round(((hi! + 0.05) / (lo! + 0.05)) * 100) / 100;
    };

    // with a dialog open, the page behind it is out of reach: its controls only
    const root = document.querySelector('[role="dialog"]') ?? document;
    const controls = [
      ...root.querySelectorAll<HTMLElement>(
        'input:not([type=hidden]):not([type=file]):not([type=radio]), textarea, button[role=combobox], button[role=switch], button:not([role])',
      ),
    ].filter((el) => el.checkVisibility({ visibilityProperty: true }) && !(el as HTMLInputElement).disabled);
    // at rest means unfocused (a dialog focuses its first field)
    (document.activeElement as HTMLElement | null)?.blur();
    const results: {
      control: string;
      state: 'rest' | 'focus';
      colour: string;
      against: string;
      ratio: number;
      focusVisible?: boolean;
      box?: { x: number; y: number; width: number; height: number };
    }[] = [];
    const settleStyles = (el: Element) =>
      Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))).then(
        () => new Promise((resolve) => requestAnimationFrame(resolve)),
      );

    for (const el of controls) {
      const type = el.getAttribute('type');
      const role = el.getAttribute('role');
      const kind =
        el.tagName === 'BUTTON' && !role
          ? 'button'
          : type === 'checkbox'
            ? 'checkbox'
            : role === 'switch'
              ? 'switch'
              : role === 'combobox'
                ? el.tagName === 'BUTTON'
                  ? 'select'
                  : 'combobox'
                : el.tagName === 'TEXTAREA'
                  ? 'textarea'
                  : `${type ?? 'text'} input`;
      const name =
        el.getAttribute('aria-label') ??
        (kind === 'button' ? el.textContent : null) ??
        (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null) ??
        el.closest('label')?.textContent ??
        el.getAttribute('placeholder') ??
        '';
      const control = `${kind} "${name.trim().slice(0, 40)}"${(el as HTMLInputElement).checked || el.getAttribute('aria-checked') === 'true' ? ' (on)' : ''}`;
      const outside = behind(el.parentElement);
      const around = paint(...outside);
      const own = getComputedStyle(el);
      // (a computed style is live: keep the border as it is at rest)
      const restBorder = own.borderTopColor;
      const inside = paint(...outside, own.backgroundColor);

      // at rest: the edge that shows where the control is (a button shows itself by its words or fill)
      if (kind === 'button') {
        // its focus ring only, below
      } else if (kind === 'checkbox') {
        const r = el.getBoundingClientRect();
        results.push({
          control,
          state: 'rest',
          colour: '',
          against: around,
          ratio: 0,
          box: { x: r.x, y: r.y, width: r.width, height: r.height },
        });
      } else if (kind === 'switch') {
        // the track, or its border where it has one
        const edge =
          parseFloat(own.borderTopWidth) > 0 && !transparent(own.borderTopColor)
            ? own.borderTopColor
            : own.backgroundColor;
        const colour = paint(...outside, edge);
        results.push({ control, state: 'rest', colour, against: around, ratio: ratio(colour, around) });
      } else {
        const colour = paint(...outside, own.borderTopColor);
        // against the background outside and the field's own inside, the lower of the two
        const against = ratio(colour, around) <= ratio(colour, inside) ? around : inside;
        results.push({ control, state: 'rest', colour, against, ratio: ratio(colour, against) });
      }

      // focused: the strongest of its focus indicators (a border, an outline, a ring)
      el.focus({ preventScroll: true });
      await settleStyles(el);
      const focused = getComputedStyle(el);
      const candidates: string[] = [];
      // a field's border, when focus changes it
      const field = !['button', 'checkbox', 'switch'].includes(kind);
      if (field && parseFloat(focused.borderTopWidth) > 0 && focused.borderTopColor !== restBorder) {
        candidates.push(focused.borderTopColor);
      }
      if (focused.outlineStyle !== 'none' && parseFloat(focused.outlineWidth) > 0)
        candidates.push(focused.outlineColor);
      for (const shadow of focused.boxShadow.split(/,(?![^(]*\))/)) {
        const colour = shadow.match(/(rgba?|oklch|oklab|color)\([^)]*\)/)?.[0];
        const lengths = shadow
          .replace(colour ?? '', '')
          .trim()
          .split(/\s+/)
          .map(parseFloat);
        // a ring: no offset, no blur, a spread of 1px or more
        if (colour && lengths[0] === 0 && lengths[1] === 0 && lengths[2] === 0 && (lengths[3] ?? 0) >= 1) {
          candidates.push(colour);
        }
      }
      const best = candidates
        .map((c) => paint(...outside, c))
        .map((colour) => ({ colour, ratio: ratio(colour, around) }))
        .sort((a, b) => b.ratio - a.ratio)[0];
      results.push({
        control,
        state: 'focus',
        colour: best?.colour ?? 'none',
        against: around,
        ratio: best?.ratio ?? 0,
        focusVisible: el.matches(':focus-visible'),
      });
      el.blur();
      await settleStyles(el);
    }
    return results;
  });

  // a native checkbox: the most contrasting pixel of its box's edge (its border, or its fill when checked)
  for (const entry of measured) {
    if (!entry.box) continue;
    const png = await page.screenshot({ clip: entry.box, animations: 'disabled' });
    const best = await page.evaluate(
      async ({ base64, against }) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = document.createElement('canvas');
        canvas.width = bitmap.width;
        canvas.height = bitmap.height;
        const context = canvas.getContext('2d')!;
        context.drawImage(bitmap, 0, 0);
        const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
        const channel = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
        const luminance = (r: number, g: number, b: number) =>
          0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
        const [ar, ag, ab] = against.match(/\d+/g)!.map(Number);
        const base = luminance(ar!, ag!, ab!);
        let top = { colour: 'none', ratio: 1 };
        const { width, height } = bitmap;
        for (let i = 0; i < data.length; i += 4) {
          // the box's edge (its outer 3 pixels), not a check mark inside it
          const [x, y] = [(i / 4) % width, Math.floor(i / 4 / width)];
          if (x >= 3 && x < width - 3 && y >= 3 && y < height - 3) continue;
          const l = luminance(data[i]!, data[i + 1]!, data[i + 2]!);
          const r = (Math.max(l, base) + 0.05) / (Math.min(l, base) + 0.05);
          if (r > top.ratio) top = { colour: `rgb(${data[i]}, ${data[i + 1]}, ${data[i + 2]})`, ratio: r };
        }
        return { colour: top.colour, ratio: Math.round(top.ratio * 100) / 100 };
      },
      { base64: png.toString('base64'), against: entry.against },
    );
    Object.assign(entry, best);
    delete entry.box;
  }
  for (const entry of measured) {
    if (entry.focusVisible === false) throw new Error(`${where}: ${entry.control} did not show keyboard focus`);
    delete entry.focusVisible;
  }
  return measured.map((entry) => ({ ...entry, control: `${where}: ${entry.control}` }));
}

describe('non-text contrast (WCAG 1.4.11)', () => {
  for (const theme of THEMES) {
    it(`form controls' edges and focus indicators, and buttons' focus rings, have 3:1 against their background (${theme})`, async () => {
      await ready();
      const { context, page } = await stack.newPage(WIDTHS.desktop, {
        colorScheme: theme,
        reducedMotion: 'reduce',
        storageState: signedInState,
      });
      const all: Contrast[] = [];
      const look = async (where: string, url: string, open?: () => Promise<void>) => {
        await page.goto(url);
        await settle(page);
        if (open) {
          await open();
          await settle(page);
        }
        expect(await themeOnScreen(page)).toBe(theme);
        all.push(...(await controlContrasts(page, where)));
        await page.screenshot({
          path: path.join(ARTIFACTS, `a11y-contrast-${theme}-${slug(where)}.png`),
          fullPage: true,
        });
      };
      const dialog = async (button: string) => {
        await page.getByRole('button', { name: button }).filter({ visible: true }).first().click();
        await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
      };
      await look('Mail Intake', '/mail-intake');
      await look('Log Mail', '/mail-intake', () => dialog('Log New Mail'));
      await look('History', '/history');
      await look('Set up Webhook', '/integrations', async () => {
        await dialog('Set up Webhook');
        // its events start ticked: untick one, to measure both
        await page.getByRole('dialog').getByRole('checkbox').first().uncheck();
      });
      await look('Account settings', '/settings', () => page.getByRole('tab', { name: 'Account' }).click());
      await look('Customization', '/settings', () => page.getByRole('tab', { name: 'Customization' }).click());

      const kinds = (pattern: RegExp) => all.filter((m) => pattern.test(m.control.split(': ')[1]!));
      // each kind the issue names was found and measured
      for (const kind of [/^text input/, /^select/, /^checkbox [^(]*$/, /^checkbox .*\(on\)/, /^switch/]) {
        expect(kinds(kind).length, `no ${kind.source} measured`).toBeGreaterThan(0);
      }
      await fs.writeFile(path.join(ARTIFACTS, `a11y-contrast-${theme}.json`), JSON.stringify(all, null, 2));
      const short = all.filter((m) => m.ratio < 3);
      expect(
        short.length,
        `below 3:1 (${theme}):\n` +
          short.map((m) => `  ${m.control} ${m.state}: ${m.colour} on ${m.against} = ${m.ratio}`).join('\n'),
      ).toBe(0);
      await context.close();
    });
  }
});

describe('the theme', () => {
  it('follows the system until Account settings choose one, which is on screen before the app runs', async () => {
    await ready();
    const { context, page } = await stack.newPage(WIDTHS.desktop, {
      colorScheme: 'light',
      storageState: signedInState,
    });
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
    // the browser's own chrome (a phone's address bar) in the theme's colour, here and at each change
    expect(await browserColour(page)).toBe(BROWSER_COLOURS.light);

    // the system turns dark: so does the app, at once
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => themeOnScreen(page)).toBe('dark');
    expect(await browserColour(page)).toBe(BROWSER_COLOURS.dark);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => themeOnScreen(page)).toBe('light');
    expect(await browserColour(page)).toBe(BROWSER_COLOURS.light);

    // choosing Dark overrides the system and is remembered in this browser
    await choose('Dark');
    await expect.poll(() => themeOnScreen(page)).toBe('dark');
    expect(await browserColour(page)).toBe(BROWSER_COLOURS.dark);
    expect(await page.evaluate(() => localStorage.getItem('pigeonhole-theme'))).toBe('dark');
    await stack.screenshot(page, 'a11y-theme-settings-dark');

    // no flash: with the app's JavaScript held back, the first paint is already dark, chrome included
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/mail-intake');
    expect(await themeOnScreen(page)).toBe('dark');
    expect(await browserColour(page)).toBe(BROWSER_COLOURS.dark);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(brightness(await rgbOf(page, background)), `a dark page background, not ${background}`).toBeLessThan(40);
    // the dark chrome colour is the page's own background
    expect(await rgbOf(page, BROWSER_COLOURS.dark)).toEqual(await rgbOf(page, background));
    await page.unroute('**/assets/*.js');

    // another tab of the same browser follows the choice
    const other = await context.newPage();
    await other.goto('/settings');
    expect(await themeOnScreen(other)).toBe('dark');
    expect(await browserColour(other)).toBe(BROWSER_COLOURS.dark);
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Account' }).click();
    await choose('Light');
    expect(await browserColour(page)).toBe(BROWSER_COLOURS.light);
    await expect.poll(() => themeOnScreen(other)).toBe('light');
    expect(await browserColour(other)).toBe(BROWSER_COLOURS.light);

    // back to the system's setting
    await choose('System');
    expect(await page.evaluate(() => localStorage.getItem('pigeonhole-theme'))).toBeNull();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => themeOnScreen(page)).toBe('dark');
    expect(await browserColour(page)).toBe(BROWSER_COLOURS.dark);
    await context.close();

    // a first visit on a dark system, before any script of the app: the pre-paint script alone
    const fresh = await stack.browser.newContext({ viewport: WIDTHS.phone, baseURL: stack.url, colorScheme: 'dark' });
    const first = await fresh.newPage();
    await first.route('**/assets/*.js', (route) => route.abort());
    await first.goto('/login');
    expect(await themeOnScreen(first)).toBe('dark');
    expect(await browserColour(first)).toBe(BROWSER_COLOURS.dark);
    await fresh.close();
  });

  it('keeps the landing page light when the theme is dark', async () => {
    const { context, page } = await stack.newPage(WIDTHS.desktop, { colorScheme: 'dark' });
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
    const { context, page } = await stack.newPage(WIDTHS.desktop, {
      storageState: signedInState,
      reducedMotion: 'reduce',
    });
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
