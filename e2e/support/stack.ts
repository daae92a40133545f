import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import pg from 'pg';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { loadConfig } from '../../src/server/config';
import { startServer } from '../../src/server/server';
import { startTestSmtp } from '../../src/server/test/smtp';

export const ARTIFACTS = path.resolve('e2e/artifacts');

/** Lets opening dialogs and menus finish their transitions (endless ones, like skeletons, excepted). */
export async function finishTransitions(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** Flags that keep Chromium off the closed network of these machines. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Chromium whose camera is a fake device playing `video` (a .y4m file), with the permission
 * prompt answered: how the journeys show the desk's camera a label or a code.
 */
export function launchWithCamera(video: string): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
}

/**
 * The whole product as a person meets it: the built client and the server on a free port, an
 * embedded PostgreSQL of its own (or E2E_DATABASE_URL), a real SMTP server, and Chromium.
 */
export async function startStack(options: { seedDemo?: boolean; env?: Record<string, string> } = {}) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pigeonhole-e2e-'));
  await fs.chmod(dataDir, 0o755);
  const smtp = await startTestSmtp();
  const server = await startServer(
    loadConfig(
      {
        NODE_ENV: 'development',
        // The journeys' webhook receivers and SMTP servers listen on loopback.
        ALLOW_PRIVATE_TARGETS: 'true',
        // Every journey registers from 127.0.0.1.
        REGISTER_RATE_LIMIT_IP: '100000',
        PORT: '0',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        SMTP_URL: smtp.url,
        SEED_DEMO: options.seedDemo ? 'true' : 'false',
        ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
        ...options.env,
      },
      process.cwd(),
    ),
  );
  const browser: Browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  await fs.mkdir(ARTIFACTS, { recursive: true });
  return {
    url: server.url,
    smtp,
    browser,
    demoLogin: server.demoLogin,
    /** Runs SQL on the stack's database: for states no screen reaches quickly (an ended trial). */
    async sql(text: string, values: unknown[] = []) {
      const client = new pg.Client({ connectionString: server.databaseUrl });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    /** A fresh browser profile (cookies, localStorage) at the given viewport, with any other context options. */
    async newPage(
      viewport = { width: 1280, height: 800 },
      options: BrowserContextOptions = {},
    ): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser.newContext({ ...options, viewport, baseURL: server.url });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return { context, page };
    },
    /** What the person sees (the viewport), and the whole page beside it. */
    /** Signs in as the seeded demo front-desk admin and waits for the dashboard. */
    async signInAsDemo(page: Page) {
      await page.goto('/login');
      await page.getByLabel('Email').fill(server.demoLogin!.email);
      await page.getByLabel('Password').fill(server.demoLogin!.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect
        .poll(() => page.getByRole('heading', { name: 'Dashboard' }).isVisible(), { timeout: 10_000 })
        .toBe(true);
    },
    async screenshot(page: Page, name: string) {
      await finishTransitions(page);
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}-full.png`), fullPage: true });
    },
    async stop() {
      await browser.close();
      await server.stop();
      await smtp.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

let seq = 0;
export function uniqueAccount(prefix: string) {
  seq += 1;
  const handle = `${prefix}${seq}${Date.now().toString(36)}`;
  return { username: handle, email: `${handle}@example.com`, password: 'front-desk-123' };
}
