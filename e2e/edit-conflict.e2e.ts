import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/page-api';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seedDemo: true });
});
afterAll(() => stack?.stop());

type Item = { id: string; sender: string | null; description: string | null; status: string; revision: number };

/** Opens the Edit dialog of the row with `tracking` on Mail Intake: it loads the item as it is now. */
async function openEdit(page: Page, tracking: string) {
  await page.getByRole('link', { name: 'Mail Intake' }).first().click();
  await page.getByRole('searchbox').or(page.getByPlaceholder('Search mail items')).first().fill(tracking);
  const row = page.getByText(tracking).filter({ visible: true }).first();
  await expect.poll(() => row.isVisible()).toBe(true);
  await page
    .getByRole('button', { name: /^Actions for / })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Mail Item' });
  await expect.poll(() => dialog.getByLabel('Sender').isVisible()).toBe(true);
  return dialog;
}

/** Issue 29 item 3 (decision 044): two clerks change one item. */
describe('two clerks change the same item', () => {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`shows the second what the first changed and lets them apply theirs again or keep the other (${label})`, async () => {
      const first = await stack.newPage(viewport);
      const second = await stack.newPage(viewport);
      await stack.signInAsDemo(first.page);
      await stack.signInAsDemo(second.page);
      const recipient = await api<{ id: string }>(first.page, 'POST', '/api/recipients', {
        firstName: 'Cleo',
        lastName: `Conflict${label}`,
      });
      const tracking = `CONFLICT${label.toUpperCase()}`;
      const item = await api<Item>(first.page, 'POST', '/api/mail-items', {
        type: 'package',
        recipientId: recipient.id,
        trackingNumber: tracking,
        sender: 'Acme',
      });

      // Round 1. The second clerk opens the item; meanwhile the first changes its sender.
      const theirs = await openEdit(second.page, tracking);
      const mine = await openEdit(first.page, tracking);
      await mine.getByLabel('Sender').fill('Globex');
      await mine.getByRole('button', { name: 'Save Changes' }).click();
      await expect.poll(() => mine.isVisible()).toBe(false);

      // The second saves their own change: refused, and shown what changed, in words.
      await theirs.getByLabel('Sender').fill('Initech');
      await theirs.getByRole('button', { name: 'Save Changes' }).click();
      const conflict = second.page.getByRole('dialog', { name: 'Someone else changed this item' });
      await expect.poll(() => conflict.isVisible()).toBe(true);
      const changes = conflict.getByTestId('conflict-changes');
      expect(await changes.innerText()).toMatch(/Sender\s*Acme\s*Globex/);
      expect(await conflict.innerText()).toContain('Sender: Initech');
      // Nothing of the second clerk's was written.
      expect(await api<Item>(first.page, 'GET', `/api/mail-items/${item.id}`)).toMatchObject({
        sender: 'Globex',
        revision: 2,
      });
      await stack.screenshot(second.page, `edit-conflict-${label}`);

      // "Apply mine again": their change on top of the first's.
      await conflict.getByRole('button', { name: 'Apply mine again' }).click();
      await expect.poll(() => conflict.isVisible()).toBe(false);
      await expect
        .poll(async () => (await api<Item>(first.page, 'GET', `/api/mail-items/${item.id}`)).sender)
        .toBe('Initech');

      // Round 2. The second clerk opens it again; the first marks it notified (a status change).
      const again = await openEdit(second.page, tracking);
      const now = await api<Item>(first.page, 'GET', `/api/mail-items/${item.id}`);
      await first.page.evaluate(
        async ([id, revision]) => {
          const res = await fetch(`/api/mail-items/${id}`, {
            method: 'PUT',
            headers: {
              'content-type': 'application/json',
              'if-match': `"${revision}"`,
              'x-organization-id': localStorage.getItem('selectedOrganizationId') ?? '',
            },
            body: JSON.stringify({ status: 'notified' }),
          });
          if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
        },
        [item.id, now.revision] as const,
      );
      await again.getByLabel('Description').fill('Left at the back door');
      await again.getByRole('button', { name: 'Save Changes' }).click();
      await expect.poll(() => conflict.isVisible()).toBe(true);
      expect(await conflict.getByTestId('conflict-changes').innerText()).toMatch(/Status\s*Pending\s*Notified/);
      // "Keep theirs": nothing of the second clerk's is written.
      await conflict.getByRole('button', { name: 'Keep theirs' }).click();
      await expect.poll(() => conflict.isVisible()).toBe(false);
      const kept = await api<Item>(first.page, 'GET', `/api/mail-items/${item.id}`);
      expect(kept).toMatchObject({ status: 'notified', description: null, sender: 'Initech' });
      expect(kept.revision).toBe(now.revision + 1);

      await first.context.close();
      await second.context.close();
    });
  }
});
