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
