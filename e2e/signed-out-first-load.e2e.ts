import { twMerge } from 'tailwind-merge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startStack, type Stack } from './support/stack';

/**
 * The sign-in and registration pages load under 100 KB of JavaScript (issue 14, item 2; decision
 * 024): their forms' zod schemas arrive when a form is first focused, they do without TanStack
 * Query, react-hook-form, Radix Tabs and tailwind-merge, and nothing on them needs
 * tailwind-merge, because no class given to a component conflicts with the component's own.
 * The forms still check the contract's rules with its messages, tied to their fields.
 */

const DESKTOP = { width: 1280, height: 800 };
const SCHEMA_CHUNK = /\/assets\/formSchemas-[\w-]+\.js$/;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

/** The JavaScript files the page fetched, with their size over the wire (compressed). */
function scripts(page: Page) {
  return page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((r) => /\.js(\?|$)/.test(r.name))
      .map((r) => ({ path: new URL(r.name).pathname, bytes: r.encodedBodySize })),
  );
}

/**
 * Class lists on the page in which tailwind-merge would drop a class: two utilities setting the
 * same thing (`inline-flex` and `grid`), where the stylesheet's order, not the code, would decide.
 */
async function classConflicts(page: Page) {
  const lists = await page.evaluate(() => [
    ...new Set([...document.querySelectorAll('[class]')].map((el) => el.getAttribute('class') ?? '')),
  ]);
  return lists.filter((list) => {
    const kept = new Set(twMerge(list).split(/\s+/));
    return list.split(/\s+/).some((name) => name && !kept.has(name));
  });
}

const PAGES: { path: string; ready: string; weigh?: false }[] = [
  { path: '/login', ready: 'Sign in to Pigeonhole' },
  { path: '/register', ready: 'Create your account' },
  { path: '/auth', ready: 'Welcome back' },
  { path: '/auth/register', ready: 'Create your account' },
  { path: '/forgot-password', ready: 'Forgot your password?' },
  { path: '/reset-password?token=not-a-real-token', ready: 'Choose a new password' },
  // an invitation link that is not valid: the note beside the form, and a toast, whose viewport
  // (Radix Toast) loads when the first toast shows, like a dialog: not weighed as the first load
  { path: '/register?invitation=not-a-real-token', ready: 'Create your account', weigh: false },
  { path: '/no-such-page', ready: '404 Page Not Found' },
];

describe('what a signed-out page loads', () => {
  for (const { path, ready, weigh } of PAGES) {
    it(`${path}: under 100 KB of JavaScript, no zod before the form is used, no class conflicts`, async () => {
      const { context, page } = await stack.newPage(DESKTOP);
      await page.goto(path);
      await expect.poll(() => page.getByRole('heading', { level: 1, name: ready }).isVisible()).toBe(true);
      await page.waitForLoadState('networkidle');

      const loaded = await scripts(page);
      const bytes = loaded.reduce((sum, s) => sum + s.bytes, 0);
      expect(bytes).toBeGreaterThan(10_000); // the measure works: React alone is more
      console.log(`${path}: ${(bytes / 1024).toFixed(1)} KB of JavaScript over the wire`);
      if (weigh !== false) expect(bytes).toBeLessThan(100 * 1024);
      expect(loaded.filter((s) => SCHEMA_CHUNK.test(s.path) || /\/(QueryRoot|SignedInApp)-/.test(s.path))).toEqual([]);
      expect(await classConflicts(page)).toEqual([]);
      await context.close();
    });
  }
});

describe('the signed-out forms check the contract rules', () => {
  it('/login: the schema loads on focus; an empty submit shows the messages on their fields and focuses the first', async () => {
    const { context, page } = await stack.newPage(DESKTOP);
    await page.goto('/login');
    const email = page.getByLabel('Email');
    await expect.poll(() => email.isVisible()).toBe(true);

    const schemaLoaded = page.waitForResponse((res) => SCHEMA_CHUNK.test(new URL(res.url()).pathname));
    await email.focus();
    expect((await schemaLoaded).status()).toBe(200);

    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.getByText('Please enter a valid email address').isVisible()).toBe(true);
    expect(await page.getByText('Password is required').isVisible()).toBe(true);
    // each message is the description of its field, and the first field in error has the focus
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await email.getAttribute('aria-describedby');
    expect(await page.locator(`#${describedBy}`).textContent()).toBe('Please enter a valid email address');
    expect(await email.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await classConflicts(page)).toEqual([]);

    // after a submit, each change checks again: a valid address clears its message at once
    await email.fill('jane@example.com');
    await expect.poll(() => page.getByText('Please enter a valid email address').count()).toBe(0);
    expect(await email.getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByText('Password is required').isVisible()).toBe(true);

    // a wrong password reaches the server and is refused there
    await page.getByLabel('Password').fill('not-the-password-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.getByText('Invalid username or password').first().isVisible()).toBe(true);
    await context.close();
  });

  it('/register: the confirmation must match, and the username follows the contract', async () => {
    const { context, page } = await stack.newPage(DESKTOP);
    await page.goto('/register');
    await page.getByLabel('Username').fill('no spaces allowed');
    await page.getByLabel('Email').fill('ROSA@Example.com');
    await page.getByLabel('Password', { exact: true }).fill('secret-123');
    await page.getByLabel('Confirm Password').fill('secret-124');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => page.getByText("Passwords don't match").isVisible()).toBe(true);
    expect(await page.getByText('Username may contain letters, digits and . _ @ + - only').isVisible()).toBe(true);
    expect(await page.getByLabel('Username').evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it('when the schema cannot be fetched, the person is told and nothing is sent; the next try works', async () => {
    const { context, page } = await stack.newPage(DESKTOP);
    await page.route(SCHEMA_CHUNK, (route) => route.abort());
    const sent: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/forgot-password')) sent.push(req.url());
    });
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill('rosa@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect.poll(() => page.getByText('Check your connection and try again.').isVisible()).toBe(true);
    expect(sent).toEqual([]);

    await page.unroute(SCHEMA_CHUNK);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Check your email' }).isVisible()).toBe(true);
    expect(sent).toHaveLength(1);
    await context.close();
  });
});

describe('the Login and Register tabs of /auth', () => {
  it('follow the tabs pattern: arrows, Home and End select, Tab goes on to the panel', async () => {
    const { context, page } = await stack.newPage(DESKTOP);
    await page.goto('/auth');
    const login = page.getByRole('tab', { name: 'Login' });
    const register = page.getByRole('tab', { name: 'Register' });
    await expect.poll(() => login.getAttribute('aria-selected')).toBe('true');
    expect(await register.getAttribute('tabindex')).toBe('-1');

    await login.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => register.getAttribute('aria-selected')).toBe('true');
    expect(await register.evaluate((el) => el === document.activeElement)).toBe(true);
    const panel = page.getByRole('tabpanel', { name: 'Register' });
    expect(await panel.getByRole('button', { name: 'Create Account' }).isVisible()).toBe(true);

    await page.keyboard.press('Home');
    await expect.poll(() => login.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('End');
    await expect.poll(() => register.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowRight'); // wraps round
    await expect.poll(() => login.getAttribute('aria-selected')).toBe('true');

    await page.keyboard.press('Tab');
    expect(await page.getByRole('tabpanel', { name: 'Login' }).evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    expect(await classConflicts(page)).toEqual([]);
    await context.close();
  });
});
