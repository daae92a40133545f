import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerThroughUi } from './support/register';
import { startStack, uniqueAccount, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const openAccountSettings = async (page: Page, tab: 'Account' | 'Cuenta') => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: tab }).click();
};

/** No part of the page reaches past the viewport's right edge (a phone would scroll sideways). */
const overflowsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe("the staff screens' language (issue 44)", () => {
  it('a person chooses Español in Account settings: the shell and Settings speak it at once, after a reload and on another device', async () => {
    const account = uniqueAccount('idioma');
    const { context, page } = await stack.newPage();
    await registerThroughUi(page, account, 'Edificio Sol');
    await openAccountSettings(page, 'Account');
    const language = page.getByRole('radiogroup', { name: 'Language' });
    expect(await language.getByRole('radio', { name: /This browser's language/ }).isChecked()).toBe(true);
    await language.getByText('Español').click();

    // At once: the navigation, the screen's title, the tabs, the card itself.
    await expect.poll(() => page.getByRole('heading', { name: 'Configuración' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Recepción de correo' }).isVisible()).toBe(true);
    expect(await page.getByRole('tab', { name: 'Cuenta' }).isVisible()).toBe(true);
    expect(
      await page
        .getByRole('radiogroup', { name: 'Idioma' })
        .getByRole('radio', { name: /Español/ })
        .isChecked(),
    ).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await stack.screenshot(page, 'staff-language-es-desktop');

    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Configuración' }).isVisible()).toBe(true);

    // The dashboard: its figures, their trends (ICU plurals) and its empty state.
    await page.getByRole('link', { name: 'Panel' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Panel' }).isVisible()).toBe(true);
    expect(await page.getByText('Correo de hoy').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Sin actividad reciente').isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/^\+0 nuevos esta semana$/).isVisible()).toBe(true);
    await stack.screenshot(page, 'staff-language-es-dashboard-desktop');

    // Another device, an English browser: the account's choice wins.
    const other = await stack.newPage({ width: 390, height: 844 }, { locale: 'en-US' });
    await other.page.goto('/login');
    await other.page.getByLabel('Email').fill(account.email);
    await other.page.getByLabel('Password').fill(account.password);
    await other.page.getByRole('button', { name: 'Sign In' }).click();
    await expect
      .poll(() => other.page.getByRole('heading', { name: 'Panel' }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    expect(await overflowsSideways(other.page)).toBe(false);
    await stack.screenshot(other.page, 'staff-language-es-dashboard-phone');
    await openAccountSettings(other.page, 'Cuenta');
    await expect.poll(() => other.page.getByRole('heading', { name: 'Idioma' }).isVisible()).toBe(true);
    expect(await overflowsSideways(other.page)).toBe(false);
    await stack.screenshot(other.page, 'staff-language-es-phone');

    // Back to the browser's language (English here).
    await other.page.getByRole('radiogroup', { name: 'Idioma' }).getByText('El idioma de este navegador').click();
    await expect.poll(() => other.page.getByRole('heading', { name: 'Settings' }).isVisible()).toBe(true);
    await other.context.close();
    await context.close();
  });

  it("follows the browser's language when the account has chosen none", async () => {
    const account = uniqueAccount('navegador');
    const english = await stack.newPage();
    await registerThroughUi(english.page, account, 'Residencia Luna');
    await english.context.close();
    // The same account in a Mexican Spanish browser: signed in, it speaks Spanish.
    const { context, page } = await stack.newPage({ width: 1280, height: 800 }, { locale: 'es-MX' });
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Panel' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByRole('link', { name: 'Pendientes de recoger' }).isVisible()).toBe(true);
    await context.close();
  });

  it('the pseudo-locale (40 % longer) fits a 390 px phone: no sideways scroll on the translated screens', async () => {
    const { context, page } = await stack.newPage({ width: 390, height: 844 });
    await registerThroughUi(page, uniqueAccount('pseudo'), 'Pseudo Place');
    await page.evaluate(() => localStorage.setItem('pigeonhole-pseudo-locale', '1'));
    await page.goto('/settings');
    // The accented, bracketed title proves the text came from the catalogue (the built, parsed one).
    await expect.poll(() => page.getByRole('heading', { name: /^\[Šéťťíñĝš ·+\]$/ }).isVisible()).toBe(true);
    await page.getByRole('tab', { name: /Áççóúñť/ }).click();
    await expect.poll(() => page.getByRole('heading', { name: /Ĺáñĝúáĝé/ }).isVisible()).toBe(true);
    expect(await overflowsSideways(page)).toBe(false);
    await stack.screenshot(page, 'staff-language-pseudo-phone');
    await page.goto('/dashboard');
    await expect.poll(() => page.getByRole('heading', { name: /^\[Đášĥƀóáŕđ ·+\]$/ }).isVisible()).toBe(true);
    expect(await overflowsSideways(page)).toBe(false);
    await stack.screenshot(page, 'staff-language-pseudo-dashboard-phone');
    await context.close();
  });
});
