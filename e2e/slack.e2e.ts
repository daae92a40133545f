import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSlackApiServer, type SlackApiServer } from '../src/server/test/slack-api-server';
import { api } from './support/page-api';
import { startStack, type Stack } from './support/stack';

/**
 * Slack in Integrations (decision 064), in Chromium against the local server speaking Slack's Web
 * API: a refused token shown at its field, connecting, the staff channel picked from Slack's
 * channels, and the "needs attention" state after Slack revoked the token. Screenshots at 1280
 * and 390 px in e2e/artifacts/slack-*.png.
 */
let stack: Stack;
let slack: SlackApiServer;
beforeAll(async () => {
  slack = await startSlackApiServer();
  stack = await startStack({ seedDemo: true, env: { SLACK_API_URL: slack.url } });
});
afterAll(async () => {
  await stack?.stop();
  await slack?.close();
});

const PHONE = { width: 390, height: 844 };

async function openIntegrations(page: Page) {
  await page.goto('/integrations');
  await expect.poll(() => page.getByRole('heading', { name: 'Integrations', level: 1 }).isVisible()).toBe(true);
}

describe('Slack in Integrations', () => {
  it('connects a workspace, picks the staff channel, and shows a revoked token as needing attention', async () => {
    // A demo recipient is in the workspace (found by her email).
    const ws = slack.addWorkspace({ teamName: 'Harbor View HQ', users: { 'lucas.meyer@example.com': 'ULUCAS01' } });
    const { context, page } = await stack.newPage();
    await stack.signInAsDemo(page);
    await openIntegrations(page);

    await page.getByRole('button', { name: /^(Set up|Add another) Slack$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Bot token').fill('xoxb-wrong');
    await dialog.getByRole('button', { name: 'Add integration' }).click();
    await expect
      .poll(() =>
        dialog
          .getByText(/Slack refused the bot token/)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await stack.screenshot(page, 'slack-refused-token-desktop');

    await dialog.getByLabel('Bot token').fill(ws.token);
    await dialog.getByRole('button', { name: 'Add integration' }).click();
    await expect.poll(() => page.getByText('Connected to Harbor View HQ · no staff channel').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Edit Slack' }).click();
    await expect.poll(() => dialog.getByText('Connected to Harbor View HQ').isVisible()).toBe(true);
    await dialog.getByRole('combobox', { name: /Staff channel/ }).click();
    await page.getByRole('option', { name: '#front-desk' }).click();
    await stack.screenshot(page, 'slack-dialog-desktop');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByText('Connected to Harbor View HQ · #front-desk').isVisible()).toBe(true);
    await stack.screenshot(page, 'slack-connected-desktop');

    const phone = await stack.newPage(PHONE);
    await stack.signInAsDemo(phone.page);
    await openIntegrations(phone.page);
    await phone.page.getByRole('button', { name: 'Edit Slack' }).click();
    await expect
      .poll(() => phone.page.getByRole('dialog').getByText('Connected to Harbor View HQ').isVisible())
      .toBe(true);
    await stack.screenshot(phone.page, 'slack-dialog-phone');
    await phone.page.keyboard.press('Escape');

    // An item for her: the stack's worker sends the DM, and the delivery log shows it.
    const [lucas] = await stack.sql(`select id from recipients where email = 'lucas.meyer@example.com' limit 1`);
    await api(page, 'POST', '/api/mail-items', { type: 'package', sender: 'Northwind', recipientId: lucas!.id });
    await expect.poll(() => slack.posted.filter((m) => m.channel === 'ULUCAS01').length, { timeout: 20_000 }).toBe(1);
    await page.getByRole('button', { name: 'More actions: Slack' }).click();
    await page.getByRole('menuitem', { name: 'Deliveries' }).click();
    await expect.poll(() => page.getByRole('dialog').getByText('mail_item.created').first().isVisible()).toBe(true);
    await stack.screenshot(page, 'slack-deliveries-desktop');
    await page.keyboard.press('Escape');

    // Slack revokes the token: the next message fails and marks the integration.
    slack.revoke(ws.token);
    await api(page, 'POST', '/api/mail-items', { type: 'letter', sender: 'Northwind', recipientId: lucas!.id });
    await expect
      .poll(
        async () =>
          (await stack.sql(`select attention_reason from integrations where type = 'slack'`))[0]!.attention_reason,
        {
          timeout: 20_000,
        },
      )
      .toMatch(/token_revoked/);
    await openIntegrations(page);
    await expect.poll(() => page.getByText('Needs attention').isVisible()).toBe(true);
    await stack.screenshot(page, 'slack-attention-desktop');
    await openIntegrations(phone.page);
    await expect.poll(() => phone.page.getByText('Needs attention').isVisible()).toBe(true);
    await stack.screenshot(phone.page, 'slack-attention-phone');
    await context.close();
    await phone.context.close();
  });
});
