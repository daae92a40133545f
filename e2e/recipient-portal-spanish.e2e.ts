import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/page-api';
import { startStack, type Stack } from './support/stack';

/*
 * The recipient's page in Spanish (issue 44 §4, decision 066): a recipient whose language is
 * Spanish gets the arrival in Spanish, and its link opens the page in Spanish at phone width,
 * with only the Spanish catalogue fetched; the switch changes page and language at once.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

const linkIn = (text: string) => /https?:\/\/[^\s"]+\/my\/open#token=[\w-]+/.exec(text)?.[0];

describe("the recipient's page in Spanish", () => {
  it('opens from the Spanish arrival email in Spanish at 390 px, and switches to German', async () => {
    const desk = await stack.newPage();
    await stack.signInAsDemo(desk.page);
    const email = `lucia.idioma.${Date.now()}@example.com`;
    const recipient = await api<{ id: string; language: string }>(desk.page, 'POST', '/api/recipients', {
      firstName: 'Lucía',
      lastName: 'Ramírez',
      unit: '4B',
      email,
      language: 'es',
    });
    expect(recipient.language).toBe('es');
    await api(desk.page, 'POST', '/api/mail-items', {
      type: 'letter',
      recipientId: recipient.id,
      trackingNumber: '1ZIDIOMA0001',
      sender: 'Librería Central',
    });
    await desk.context.close();

    // The subject is MIME-encoded (it is not ASCII): the body says it in Spanish.
    const arrival = await stack.smtp.waitFor(email, { timeoutMs: 20_000 });
    // (the harness decodes quoted-printable bytes one per character: read them as the UTF-8 they are)
    expect(Buffer.from(arrival.text, 'latin1').toString('utf8')).toContain(
      'Una carta de Librería Central ha llegado para usted',
    );
    const link = linkIn(arrival.text);
    expect(link, arrival.text).toBeDefined();

    // A browser that prefers English: the recipient's own language wins.
    const { context, page } = await stack.newPage({ width: 390, height: 844 });
    const scripts: string[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() === 'script') scripts.push((await res.body()).toString('utf8'));
    });
    await page.goto(link!);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Hola, Lucía' }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    expect(await page.getByRole('region', { name: 'Su código de recogida' }).isVisible()).toBe(true);
    const item = page.getByTestId('portal-item').first();
    await expect.poll(() => item.textContent()).toContain('Carta');
    expect(await item.textContent()).toContain('de Librería Central');
    expect(await page.getByRole('region', { name: 'Cómo le avisamos' }).isVisible()).toBe(true);
    expect(await page.getByTestId('portal-language').inputValue()).toBe('es');
    // Spanish's catalogue fetched (its own small chunk), none of the four others.
    const fetched = (text: string) => scripts.some((body) => body.includes(text));
    expect(fetched('Cerrar sesión')).toBe(true);
    for (const other of ['Se déconnecter', 'Wird geladen…', 'Não foi possível carregar', '正在加载'])
      expect(fetched(other), other).toBe(false);
    await stack.screenshot(page, 'portal-page-spanish-390');

    // The switch: the page and the recipient's language change together.
    await page.getByTestId('portal-language').selectOption('de');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Hallo Lucía' }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    const me = await page.evaluate(async () => (await fetch('/api/portal/me')).json());
    expect(me.recipient.language).toBe('de');
    await stack.screenshot(page, 'portal-page-german-390');
    await context.close();
  });
});
