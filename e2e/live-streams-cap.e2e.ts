import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack } from './support/stack';

/**
 * Issue 41, item 5 (decision 051), in a real browser: a session holds at most
 * LIVE_STREAMS_PER_SESSION streams (2 here). A new tab's stream ends the oldest tab's with
 * `replaced`; that tab does not reconnect by itself (no fight for the slot), and comes back,
 * once, when it is looked at again.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true, env: { LIVE_STREAMS_PER_SESSION: '2' } });
});
afterAll(() => stack?.stop());

/** Every stream request of the browser profile, by tab. */
function streamRequests(context: BrowserContext) {
  const seen: Page[] = [];
  context.on('request', (req) => {
    // The service worker's own fetches have no tab; the tab's request is what counts.
    if (new URL(req.url()).pathname !== '/api/events' || req.serviceWorker()) return;
    seen.push(req.frame().page());
  });
  return seen;
}

async function openTab(context: BrowserContext, seen: Page[]) {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const before = seen.length;
  await page.goto('/dashboard');
  await expect.poll(() => page.getByRole('heading', { name: 'Dashboard' }).isVisible()).toBe(true);
  await expect.poll(() => seen.length).toBe(before + 1);
  return page;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('more tabs than a session may hold streams', () => {
  it('the oldest tab gives way and does not reconnect until it is looked at again', async () => {
    const { context, page: first } = await stack.newPage();
    const seen = streamRequests(context);
    await stack.signInAsDemo(first);
    await expect.poll(() => seen.length).toBe(1);
    const second = await openTab(context, seen);
    const third = await openTab(context, seen);
    // The first tab's stream was replaced; well past the client's retry delays (2 s, 4 s) it has
    // not asked again, and neither has any other tab.
    await wait(7_000);
    expect(seen.map((p) => [first, second, third].indexOf(p))).toEqual([0, 1, 2]);

    // Looked at again: the first tab opens one stream, which replaces the second tab's, which in
    // turn waits quietly.
    await first.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => seen.length).toBe(4);
    await wait(7_000);
    expect(seen.map((p) => [first, second, third].indexOf(p))).toEqual([0, 1, 2, 0]);
    await context.close();
  });
});
