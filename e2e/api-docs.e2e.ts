import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

describe('the API documentation', () => {
  it('renders Swagger UI at /api/docs under the same Content-Security-Policy as the app, and runs a call', async () => {
    const { context, page } = await stack.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`Content-Security-Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
      );
    });

    const response = await page.goto('/api/docs');
    expect(response!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response!.headers()['x-frame-options']).toBe('DENY');
    await expect.poll(() => page.getByRole('heading', { name: /Pigeonhole API/ }).isVisible()).toBe(true);

    // Try it out: the docs page calls the API from the browser.
    // Every tag is listed, folded (130 operations); the Operations tag opens on a click.
    await expect.poll(() => page.locator('[id^=operations-tag-]').count()).toBeGreaterThan(15);
    await page.locator('#operations-tag-Operations').click();
    await page.locator('#operations-Operations-get_api_health').getByRole('button').first().click();
    await page.getByRole('button', { name: 'Try it out' }).click();
    await page.getByRole('button', { name: 'Execute' }).click();
    await expect
      .poll(() =>
        page
          .locator('#operations-Operations-get_api_health .live-responses-table tbody .response-col_status')
          .first()
          .textContent(),
      )
      .toContain('200');
    await stack.screenshot(page, 'api-docs');
    expect(violations).toEqual([]);
    // The watch works: an inline script stays refused on this page as everywhere else.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
    });
    await expect.poll(() => violations.length).toBe(1);
    expect(await page.evaluate(() => (window as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
    await context.close();
  });
});
