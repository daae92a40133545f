import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

/**
 * Issue 14, item 3: the front desk's main job without a mouse. Log a package (Log Mail dialog:
 * tracking number, recipient, type, submit) and hand it over (Mark as Delivered), with
 * page.keyboard only; at every stop the focused element shows a focus indicator, and a closed
 * dialog gives focus back to what opened it.
 */

let stack: Stack;
let organizationId: string;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

interface Focused {
  tag: string;
  role: string | null;
  name: string;
  /** What makes the focus visible: an outline, or a ring (a spread box-shadow) on it or its tile. */
  indicator: string | null;
  /** Inside an open dialog. */
  inDialog: boolean;
}

/** The focused element, its accessible-ish name and its visible focus indicator (null: none). */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', role: null, name: '', indicator: null, inDialog: false };
    const labelledBy = el.getAttribute('aria-labelledby');
    const name =
      el.getAttribute('aria-label') ??
      (labelledBy ? document.getElementById(labelledBy)?.textContent : null) ??
      (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null) ??
      el.textContent ??
      '';
    const indicatorOf = (node: Element): string | null => {
      const style = getComputedStyle(node);
      // a menu's or a list box's current item is shown by its highlight, as menus do
      if (node.hasAttribute('data-highlighted') && style.backgroundColor !== 'rgba(0, 0, 0, 0)') {
        return `highlight ${style.backgroundColor}`;
      }
      if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return `outline ${style.outlineWidth}`;
      // Tailwind's ring: a shadow with no offset and no blur, spread 1px or more, not transparent
      for (const shadow of style.boxShadow.split(/,(?![^(]*\))/)) {
        const colour = shadow.match(/(rgba?|oklch|oklab|color)\([^)]*\)/)?.[0] ?? '';
        const lengths = shadow
          .replace(colour, '')
          .trim()
          .split(/\s+/)
          .map((part) => parseFloat(part));
        const [x, y, blur, spread] = lengths;
        const transparent = /\/\s*0\)$|,\s*0\)$/.test(colour) || colour === '';
        if (x === 0 && y === 0 && blur === 0 && (spread ?? 0) >= 1 && !transparent) return `ring ${shadow.trim()}`;
      }
      return null;
    };
    // a visually hidden radio shows its focus on the tile (label) around it
    const indicator = indicatorOf(el) ?? (el.closest('label') ? indicatorOf(el.closest('label')!) : null);
    return {
      tag: el.tagName.toLowerCase(),
      role: el.getAttribute('role'),
      name: name.trim(),
      indicator,
      inDialog: el.closest('[role="dialog"]') !== null,
    };
  });
}

/** Asserts that the focused element can be seen to have focus, and answers it. */
async function expectVisibleFocus(page: Page, step: string) {
  const now = await focused(page);
  expect(now.indicator, `${step}: ${now.tag} "${now.name}" has no visible focus indicator`).not.toBeNull();
  return now;
}

/**
 * Presses Tab (Shift+Tab backwards) until the focused element's name matches, checking that each
 * stop shows its focus (and, in a dialog, that focus never leaves it).
 */
async function tabTo(page: Page, name: RegExp, { backwards = false, inDialog = false, max = 60 } = {}) {
  for (let n = 0; n < max; n += 1) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    if (now.tag !== 'body') {
      expect(now.indicator, `Tab stop ${now.tag} "${now.name}" has no visible focus indicator`).not.toBeNull();
    }
    if (inDialog) expect(now.inDialog, `Tab left the dialog for ${now.tag} "${now.name}"`).toBe(true);
    if (name.test(now.name)) return now;
  }
  throw new Error(`No element named ${name} within ${max} Tab presses`);
}

async function api<T>(page: Page, url: string) {
  const res = await page.request.get(url, { headers: { 'x-organization-id': organizationId } });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T;
}

describe('keyboard only', () => {
  for (const [width, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`logs a package and hands it over without a mouse (${width})`, async () => {
      const { context, page } = await stack.newPage(viewport);
      organizationId = (await registerThroughUi(page, uniqueAccount(`keys${width}`), `Keyboard Desk ${width}`))!;
      const recipient = await page.request.post('/api/recipients', {
        headers: { 'x-organization-id': organizationId },
        data: { firstName: 'Avery', lastName: `Quinn${width}`, unit: '4B', recipientType: 'resident' },
      });
      expect(recipient.status(), await recipient.text()).toBe(201);
      // A drawn signature needs a pointer: this desk has turned the new organization's signature
      // requirement off (decision 053), so the hand-over is all keyboard.
      const noSignature = await page.request.put(`/api/organization-settings/${organizationId}`, {
        headers: { 'x-organization-id': organizationId },
        data: { handoverRequiresSignature: false },
      });
      expect(noSignature.ok(), await noSignature.text()).toBe(true);
      const tracking = `1ZKEYS${width.toUpperCase()}01`;

      await page.goto('/mail-intake');
      await expect.poll(() => page.getByRole('heading', { name: 'Mail Intake' }).isVisible()).toBe(true);

      // the page's action, reached with Tab from the top of the page
      await tabTo(page, /Log New Mail/);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Log New Mail' });
      await expect.poll(() => dialog.isVisible()).toBe(true);

      // focus starts in Tracking Number, inside the dialog
      await expect.poll(async () => (await focused(page)).name).toMatch(/Tracking Number/);
      await expectVisibleFocus(page, 'Tracking Number');
      await page.keyboard.type(tracking);
      // Enter (as a scanner sends it) moves on to the recipient
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await focused(page)).name).toMatch(/Recipient/);
      await expectVisibleFocus(page, 'Recipient');
      await page.keyboard.type('Aver');
      await expect
        .poll(() => page.getByRole('option', { name: new RegExp(`Avery Quinn${width}`) }).isVisible())
        .toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('combobox', { name: 'Recipient' }).inputValue()).toMatch(/Avery/);

      // the type: a select opened, moved through and chosen with the keyboard
      await tabTo(page, /^Type/, { inDialog: true });
      await page.keyboard.press('Enter');
      const listbox = page.getByRole('listbox');
      await expect.poll(() => listbox.isVisible()).toBe(true);
      await expectVisibleFocus(page, 'an option of Type');
      await page.keyboard.press('Home');
      await page.keyboard.type('Pack');
      await page.keyboard.press('Enter');
      await expect.poll(() => listbox.isVisible()).toBe(false);
      await expect.poll(() => page.getByRole('combobox', { name: 'Type' }).innerText()).toMatch(/Package/);
      // focus went back to the select it came from
      await expect.poll(async () => (await focused(page)).name).toMatch(/^Type/);
      await expectVisibleFocus(page, 'Type after choosing');

      // focus stays inside the dialog: Tab past its last control wraps round to its first, and back
      await tabTo(page, /^Log Mail$/, { inDialog: true });
      await tabTo(page, /Tracking Number/, { inDialog: true });
      await tabTo(page, /^Log Mail$/, { inDialog: true, backwards: true });
      await page.keyboard.press('Enter');
      await expect
        .poll(() => dialog.getByText(`Logged for Avery Quinn${width}`, { exact: false }).isVisible())
        .toBe(true);
      // announced: the toast, or the dialog's own status line
      // (the label reader has a status line of its own, empty here)
      expect(
        await dialog
          .getByRole('status')
          .filter({ hasText: /Logged for/ })
          .innerText(),
      ).toMatch(/Logged for/);

      // Escape closes the dialog and gives focus back to the button that opened it
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.isVisible()).toBe(false);
      await expect.poll(async () => (await focused(page)).name).toMatch(/Log New Mail/);
      await expectVisibleFocus(page, 'after closing Log Mail');

      const [logged] = await api<{ id: string; status: string; type: string; trackingNumber: string }[]>(
        page,
        `/api/mail-items?search=${tracking}`,
      );
      expect(logged).toMatchObject({ status: 'pending', type: 'package', trackingNumber: tracking });

      // hand it over: the row's actions menu, Mark Delivered, the collector's name, Enter
      await tabTo(page, new RegExp(`Actions for Package for Avery Quinn${width}`));
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu');
      await expect.poll(() => menu.isVisible()).toBe(true);
      // the menu opens with its first item focused; the arrow keys move through the items
      await expect.poll(async () => (await focused(page)).role).toBe('menuitem');
      await expectVisibleFocus(page, 'the actions menu');
      for (let n = 0; n < 4 && !/Mark Delivered/.test((await focused(page)).name); n += 1) {
        const before = (await focused(page)).name;
        await page.keyboard.press('ArrowDown');
        await expect.poll(async () => (await focused(page)).name).not.toBe(before);
      }
      expect((await expectVisibleFocus(page, 'Mark Delivered')).name).toMatch(/Mark Delivered/);
      await page.keyboard.press('Enter');
      // the one hand-over (decision 053): this item ticked, the collector named (the recipient,
      // ready), identified by ID; Enter in the collector's field hands it over
      const deliver = page.getByRole('dialog', { name: `Hand over to Avery Quinn${width}` });
      await expect.poll(() => deliver.isVisible()).toBe(true);
      await tabTo(page, /Collector Name/, { inDialog: true });
      await expectVisibleFocus(page, 'Collector Name');
      await page.keyboard.type(`Avery Quinn${width}`);
      await page.keyboard.press('Enter');
      await expect.poll(() => deliver.isVisible()).toBe(false);
      // focus is not lost to the page's body: it is back on the row's actions
      await expect.poll(async () => (await focused(page)).name).toMatch(/Actions for Package/);
      await expectVisibleFocus(page, 'after the hand-over');

      await expect
        .poll(async () => (await api<{ status: string }>(page, `/api/mail-items/${logged!.id}`)).status)
        .toBe('delivered');
      await stack.screenshot(page, `keyboard-delivered-${width}`);
      await context.close();
    });
  }
});
