import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, mailItems, organizationMembers, users } from '../../db/schema';
import { API_KEY_NOT_ALLOWED, INVALID_API_KEY } from '../../plugins/session';
import { Client, createTestApp, joinAs, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

type Created = { id: string; apiKey?: string };
type KeyDto = {
  id: string;
  name: string;
  prefix: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  key?: string;
};

/** An organization with an admin, a recipient and an API integration; answers its first key. */
async function setup(app: TestApp = t) {
  const admin = new Client(app);
  const account = await admin.register();
  const org = await admin.createOrganization('Harbor View');
  const recipient = (await admin.post('/api/recipients', { firstName: 'Ada', lastName: 'Lovelace' })).json<{
    id: string;
  }>();
  const res = await admin.post('/api/integrations', { name: 'Front desk system', type: 'api' });
  expect(res.statusCode, res.body).toBe(201);
  const integration = res.json<Created>();
  expect(integration.apiKey).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
  return { admin, account, org, recipient, integration, key: integration.apiKey! };
}

/** A request with only the key: no session cookie. */
function withKey(
  key: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  app: TestApp = t,
) {
  return app.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, ...headers },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
}

describe('API keys', () => {
  it('log and read mail items for their organization only, as the key creator with the member role', async () => {
    const { org, recipient, key, account } = await setup();
    const other = await setup();
    const theirs = (
      await other.admin.post('/api/mail-items', { type: 'letter', recipientId: other.recipient.id })
    ).json<{ id: string }>();

    const logged = await withKey(key, 'POST', '/api/mail-items', { type: 'package', recipientId: recipient.id });
    expect(logged.statusCode, logged.body).toBe(201);
    const item = logged.json<{ id: string; organizationId: string; createdBy: string }>();
    expect(item.organizationId).toBe(org.id);
    expect(item.createdBy).toBe(account.user.id);

    const list = await withKey(key, 'GET', '/api/mail-items');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<Array<{ id: string }>>().map((i) => i.id)).toEqual([item.id]);
    // x-api-key works the same, and the header may name the key's own organization.
    const viaHeader = await t.app.inject({
      method: 'GET',
      url: `/api/mail-items/${item.id}`,
      headers: { 'x-api-key': key, 'x-organization-id': org.id },
    });
    expect(viaHeader.statusCode, viaHeader.body).toBe(200);

    // Another organization: its rows are 404, naming it in the header 403.
    expect((await withKey(key, 'GET', `/api/mail-items/${theirs.id}`)).statusCode).toBe(404);
    const foreign = await withKey(key, 'GET', '/api/mail-items', undefined, { 'x-organization-id': other.org.id });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 'not_a_member' });
    const wrongRecipient = await withKey(key, 'POST', '/api/mail-items', {
      type: 'package',
      recipientId: other.recipient.id,
    });
    expect(wrongRecipient.statusCode).toBe(404);
    expect(await t.db.select().from(mailItems).where(eq(mailItems.organizationId, org.id))).toHaveLength(1);
  });

  it('admin calls answer 403; account calls refuse keys', async () => {
    const { key, integration } = await setup();
    const admin = await withKey(key, 'POST', '/api/mailrooms', { name: 'Back office' });
    expect(admin.statusCode).toBe(403);
    expect(admin.json()).toMatchObject({ code: 'admin_required' });
    expect(
      (await withKey(key, 'POST', `/api/integrations/${integration.id}/api-keys`, { name: 'More' })).statusCode,
    ).toBe(403);
    expect((await withKey(key, 'GET', '/api/integrations')).statusCode).toBe(200);

    for (const [method, url, body] of [
      ['GET', '/api/auth/user', undefined],
      ['PATCH', '/api/auth/user', { firstName: 'Robot' }],
      ['POST', '/api/change-password', { currentPassword: 'x', newPassword: 'correct-horse-10' }],
      ['GET', '/api/organizations', undefined],
      ['POST', '/api/organizations', { name: 'Sneaky' }],
      ['POST', '/api/invitations/accept', { token: 'x'.repeat(43) }],
    ] as const) {
      const res = await withKey(key, method, url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json()).toEqual({ message: API_KEY_NOT_ALLOWED, code: 'api_key_not_allowed' });
    }
  });

  it('unknown, revoked, switched-off or orphaned keys answer 401 Invalid API key', async () => {
    const { admin, key, integration, org, account } = await setup();
    const invalid = { message: INVALID_API_KEY, code: 'invalid_api_key' };
    expect((await withKey('pk_nope', 'GET', '/api/mail-items')).json()).toEqual(invalid);
    expect(
      (await withKey(`pk_${crypto.randomBytes(32).toString('base64url')}`, 'GET', '/api/mail-items')).statusCode,
    ).toBe(401);

    expect((await admin.put(`/api/integrations/${integration.id}`, { isActive: false })).statusCode).toBe(200);
    const off = await withKey(key, 'GET', '/api/mail-items');
    expect(off.statusCode).toBe(401);
    expect(off.json()).toEqual(invalid);
    await admin.put(`/api/integrations/${integration.id}`, { isActive: true });
    expect((await withKey(key, 'GET', '/api/mail-items')).statusCode).toBe(200);

    const second = (
      await admin.post(`/api/integrations/${integration.id}/api-keys`, { name: 'Second' })
    ).json<KeyDto>();
    expect((await withKey(second.key!, 'GET', '/api/mail-items')).statusCode).toBe(200);
    expect((await admin.delete(`/api/integrations/${integration.id}/api-keys/${second.id}`)).statusCode).toBe(204);
    expect((await withKey(second.key!, 'GET', '/api/mail-items')).statusCode).toBe(401);
    expect((await withKey(key, 'GET', '/api/mail-items')).statusCode).toBe(200);

    // The creator leaves the organization: the keys they made stop working.
    const { client: otherAdmin } = await joinAs(t, org.id, 'admin');
    expect((await otherAdmin.delete(`/api/organizations/${org.id}/members/${account.user.id}`)).statusCode).toBe(204);
    expect((await withKey(key, 'GET', '/api/mail-items')).statusCode).toBe(401);

    // Deleting the integration deletes its keys.
    const fresh = (await otherAdmin.post('/api/integrations', { name: 'API 2', type: 'api' })).json<Created>();
    expect((await withKey(fresh.apiKey!, 'GET', '/api/mail-items')).statusCode).toBe(200);
    expect((await otherAdmin.delete(`/api/integrations/${fresh.id}`)).statusCode).toBe(204);
    expect((await withKey(fresh.apiKey!, 'GET', '/api/mail-items')).statusCode).toBe(401);
  });

  it('are stored only as their SHA-256, listed with a prefix, stamped when used at most once a minute', async () => {
    const { admin, key, integration } = await setup();
    const rows = await t.db.select().from(apiKeys).where(eq(apiKeys.integrationId, integration.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.keyHash).toBe(crypto.createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(key.slice(3));
    expect(rows[0]!.lastUsedAt).toBeNull();

    await withKey(key, 'GET', '/api/mail-items');
    const [used] = await t.db.select().from(apiKeys).where(eq(apiKeys.integrationId, integration.id));
    expect(used!.lastUsedAt).not.toBeNull();
    await withKey(key, 'GET', '/api/mail-items');
    const [again] = await t.db.select().from(apiKeys).where(eq(apiKeys.integrationId, integration.id));
    expect(again!.lastUsedAt).toEqual(used!.lastUsedAt);

    const list = await admin.get(`/api/integrations/${integration.id}/api-keys`);
    expect(list.statusCode, list.body).toBe(200);
    const [listed] = list.json<KeyDto[]>();
    expect(listed).toMatchObject({ name: 'Default key', prefix: key.slice(0, 11), revokedAt: null });
    expect(listed!.lastUsedAt).not.toBeNull();
    expect(listed).not.toHaveProperty('key');
    expect(list.body).not.toContain(key);

    const created = await admin.post(`/api/integrations/${integration.id}/api-keys`, { name: '  Warehouse  ' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<KeyDto>()).toMatchObject({
      name: 'Warehouse',
      prefix: created.json<KeyDto>().key!.slice(0, 11),
    });
    expect((await admin.post(`/api/integrations/${integration.id}/api-keys`, { name: '' })).json()).toMatchObject({
      message: 'Name is required',
    });

    const hook = (
      await admin.post('/api/integrations', {
        name: 'Hook',
        type: 'webhook',
        config: { webhookUrl: 'https://example.com/h' },
      })
    ).json<Created>();
    expect(hook.apiKey).toBeUndefined();
    const notApi = await admin.post(`/api/integrations/${hook.id}/api-keys`, { name: 'Nope' });
    expect(notApi.statusCode).toBe(400);
    expect(notApi.json()).toMatchObject({ code: 'not_api_integration' });
    expect((await admin.delete(`/api/integrations/${integration.id}/api-keys/${crypto.randomUUID()}`)).statusCode).toBe(
      404,
    );
  });

  it('a deleted creator account refuses the key', async () => {
    const { key, account, org } = await setup();
    await t.db
      .delete(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, org.id), eq(organizationMembers.userId, account.user.id)));
    await t.db.delete(users).where(eq(users.id, account.user.id));
    expect((await withKey(key, 'GET', '/api/mail-items')).statusCode).toBe(401);
  });

  it('are documented at /api/docs', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      info: { description: string };
      components: { securitySchemes: Record<string, { type: string; scheme?: string; name?: string }> };
    }>();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({ type: 'apiKey', name: 'x-api-key' });
    expect(doc.info.description).toContain('Authorization: Bearer pk_');
  });
});

describe('API keys with caching on', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await createTestApp({ CACHE_TTL_MS: '60000' });
  });

  it('revoking a key or switching off its integration applies to the next request', async () => {
    const { admin, key, integration } = await setup(c);
    expect((await withKey(key, 'GET', '/api/mail-items', undefined, {}, c)).statusCode).toBe(200);
    expect((await admin.put(`/api/integrations/${integration.id}`, { isActive: false })).statusCode).toBe(200);
    expect((await withKey(key, 'GET', '/api/mail-items', undefined, {}, c)).statusCode).toBe(401);
    await admin.put(`/api/integrations/${integration.id}`, { isActive: true });

    const second = (
      await admin.post(`/api/integrations/${integration.id}/api-keys`, { name: 'Second' })
    ).json<KeyDto>();
    expect((await withKey(second.key!, 'GET', '/api/mail-items', undefined, {}, c)).statusCode).toBe(200);
    expect((await admin.delete(`/api/integrations/${integration.id}/api-keys/${second.id}`)).statusCode).toBe(204);
    expect((await withKey(second.key!, 'GET', '/api/mail-items', undefined, {}, c)).statusCode).toBe(401);
    expect((await withKey(key, 'GET', '/api/mail-items', undefined, {}, c)).statusCode).toBe(200);
  });

  it("removing the key's creator from the organization stops the key on the next request", async () => {
    const { account, org, key } = await setup(c);
    expect((await withKey(key, 'GET', '/api/mail-items', undefined, {}, c)).statusCode).toBe(200);
    const { client: otherAdmin } = await joinAs(c, org.id, 'admin');
    expect((await otherAdmin.delete(`/api/organizations/${org.id}/members/${account.user.id}`)).statusCode).toBe(204);
    expect((await withKey(key, 'GET', '/api/mail-items', undefined, {}, c)).statusCode).toBe(401);
  });
});
