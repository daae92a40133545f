import type { Page } from 'playwright-core';

/**
 * A call from inside the desk's page, with its session and (unless `organization` is false) its
 * selected organization, as the app itself sends it. Throws with the status and body on non-2xx.
 */
export async function api<T>(page: Page, method: string, url: string, body?: unknown, organization = true): Promise<T> {
  return page.evaluate(
    async ([m, target, json, withOrganization]) => {
      const res = await fetch(target, {
        method: m,
        headers: {
          'content-type': 'application/json',
          ...(withOrganization ? { 'x-organization-id': localStorage.getItem('selectedOrganizationId') ?? '' } : {}),
        },
        credentials: 'include',
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      if (!res.ok) throw new Error(`${m} ${target}: ${res.status} ${await res.text()}`);
      const text = await res.text();
      return text ? JSON.parse(text) : undefined;
    },
    [method, url, body, organization] as const,
  );
}

let signature: Promise<string> | undefined;

/** A pad's PNG as the hand-over sends it (made once): new organizations require one (decision 053). */
export function signaturePng(): Promise<string> {
  signature ??= (async () => {
    const { default: sharp } = await import('sharp');
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120">' +
      '<path d="M20 80 C 80 10, 140 150, 280 60" stroke="#111" stroke-width="3" fill="none"/></svg>';
    return `data:image/png;base64,${(await sharp(Buffer.from(svg)).png().toBuffer()).toString('base64')}`;
  })();
  return signature;
}

/**
 * The body of the one way to mark items delivered (POST /api/handovers, decision 053): signed, by
 * ID, with a reason in case the collector is not on the recipient's list.
 */
export async function handOverBody(itemIds: string[], collectorName: string, proxyReason?: string) {
  return {
    itemIds,
    collectorName,
    identifiedBy: 'id_checked',
    signatureData: await signaturePng(),
    ...(proxyReason ? { proxyReason } : {}),
  };
}

/** Draws a signature on the hand-over's pad, as a finger or a mouse would. */
export async function signOnPad(page: Page) {
  const pad = page.getByRole('img', { name: /Signature pad/ });
  // The dialog scrolls on small screens: the pad is brought into view before it is drawn on.
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + box.height * 0.6);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(box.x + 30 + i * 20, box.y + box.height * (0.6 + 0.25 * Math.sin(i)), { steps: 3 });
  }
  await page.mouse.up();
}

/**
 * Completes the one hand-over dialog (decision 053) opened from a row or a menu: the collector,
 * a reason when they are not on the recipient's list, identified by ID (its default there), the
 * signature a new organization asks for, then Hand over.
 */
export async function completeHandOver(page: Page, collectorName: string) {
  const dialog = page.getByRole('dialog', { name: /^Hand over/ });
  await dialog.waitFor({ state: 'visible' });
  await dialog.getByLabel('Collector Name').fill(collectorName);
  const reason = dialog.getByLabel(/^Why they collect/);
  if (await reason.isVisible()) await reason.fill('Collects for them today');
  await signOnPad(page);
  await dialog.getByRole('button', { name: /^Hand over \d+ items?$/ }).click();
  await dialog.waitFor({ state: 'hidden' });
}
