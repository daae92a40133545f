import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MASKED_SECRET, TOTAL_COUNT_HEADER } from '../../../contract';
import { auditLog, users } from '../../db/schema';
import { Client, createTestApp, joinAs, type TestApp } from '../../test/harness';
import { everyMailroomWrite } from '../../test/mailroom-writes';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

/** An admin with an organization and a member, and three audited changes made by the admin. */
async function orgWithHistory(name = 'Harbor View') {
  const admin = new Client(t);
  const { user } = await admin.register({ firstName: 'Dana', lastName: 'Admin' });
  const org = await admin.createOrganization(name);
  const { client: member, userId: memberId } = await joinAs(t, org.id);
  await admin.put(`/api/organizations/${org.id}`, { contactName: 'Front Desk' });
  await admin.put(`/api/organizations/${org.id}/members/${memberId}`, { role: 'admin' });
  await admin.put(`/api/organization-settings/${org.id}`, { allowEditAfterDelivery: true });
  return { admin, adminId: user.id, member, memberId, org };
}

describe('GET /api/audit-log', () => {
  it('answers the entries newest first with their actor, and the total in X-Total-Count', async () => {
    const { admin, adminId, memberId, org } = await orgWithHistory();
    const res = await admin.get('/api/audit-log');
    expect(res.statusCode).toBe(200);
    expect(res.headers[TOTAL_COUNT_HEADER]).toBe('3');
    const entries = res.json();
    expect(entries.map((e: { action: string }) => e.action)).toEqual([
      'settings.updated',
      'member.role_changed',
      'organization.updated',
    ]);
    expect(entries[1]).toMatchObject({
      actor: { id: adminId, firstName: 'Dana', lastName: 'Admin' },
      targetType: 'member',
      targetId: memberId,
      before: { role: 'member' },
      after: { role: 'admin' },
    });
    expect(entries[2]).toMatchObject({
      targetType: 'organization',
      targetId: org.id,
      targetLabel: 'Harbor View',
      before: { contactName: null },
      after: { contactName: 'Front Desk' },
    });
    expect(entries[0]).toMatchObject({
      before: { allowEditAfterDelivery: false },
      after: { allowEditAfterDelivery: true },
    });
    expect(Date.parse(entries[0].createdAt)).not.toBeNaN();
  });

  it('pages with limit and offset', async () => {
    const { admin } = await orgWithHistory();
    const page = await admin.get('/api/audit-log?limit=2&offset=1');
    expect(page.statusCode).toBe(200);
    expect(page.headers[TOTAL_COUNT_HEADER]).toBe('3');
    expect(page.json().map((e: { action: string }) => e.action)).toEqual([
      'member.role_changed',
      'organization.updated',
    ]);
    expect((await admin.get('/api/audit-log?offset=10')).json()).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit must be at least 1'],
    ['limit=101', 'limit must be at most 100'],
    ['limit=abc', 'limit must be a number'],
    ['offset=-1', 'offset must be 0 or more'],
  ])('answers 400 for %s', async (query, message) => {
    const { admin } = await orgWithHistory();
    const res = await admin.get(`/api/audit-log?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it("shows only the organization's own entries; members 403, signed out 401, other organization 403", async () => {
    const { org } = await orgWithHistory('Mine');
    const other = await orgWithHistory('Theirs');
    const list = (await other.admin.get('/api/audit-log')).json();
    expect(list).toHaveLength(3);
    expect(JSON.stringify(list)).not.toContain(org.id);
    const { client: member } = await joinAs(t, org.id);
    const denied = await member.get('/api/audit-log');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Only organization admins can do this');
    expect((await new Client(t).get('/api/audit-log')).statusCode).toBe(401);
    expect((await other.admin.get('/api/audit-log', { 'x-organization-id': org.id })).statusCode).toBe(403);
  });

  it('keeps the actor empty when the account is gone, and the target label as it was', async () => {
    const { admin, member, memberId, org } = await orgWithHistory();
    // The promoted member removes the original admin, whose account then disappears.
    const adminId = (await admin.get('/api/auth/user')).json().id;
    await member.delete(`/api/organizations/${org.id}/members/${adminId}`);
    await t.db.delete(users).where(eq(users.id, adminId));
    const entries = (await member.get('/api/audit-log')).json();
    expect(entries[0]).toMatchObject({ action: 'member.removed', actor: expect.objectContaining({ id: memberId }) });
    expect(entries.at(-1)).toMatchObject({ action: 'organization.updated', actor: null });
  });
});

type Entry = {
  action: string;
  actor: { id: string } | null;
  targetType: string | null;
  targetId: string | null;
  targetLabel: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

/** An admin and a member of a new organization. */
async function adminAndMember() {
  const admin = new Client(t);
  const { user } = await admin.register({ firstName: 'Ana', lastName: 'Admin' });
  const org = await admin.createOrganization('Harbor View');
  const { client: member } = await joinAs(t, org.id);
  return { admin, adminId: user.id, member, org };
}

/** The organization's entries, oldest first, and the reply's raw text. */
async function auditLogOf(admin: Client): Promise<{ entries: Entry[]; raw: string }> {
  const res = await admin.get('/api/audit-log?limit=100');
  expect(res.statusCode).toBe(200);
  return { entries: res.json<Entry[]>().reverse(), raw: res.body };
}

const actions = (entries: Entry[]) => entries.map((e) => e.action);

async function created<T = { id: string }>(res: { statusCode: number; body: string; json: <U>() => U }): Promise<T> {
  expect(res.statusCode, res.body).toBe(201);
  return res.json<T>();
}

describe('integration and API key entries', () => {
  const emailConfig = (password: string, smtpPort = 2525) => ({
    emailSettings: { smtpHost: '127.0.0.1', smtpPort, password, fromAddress: 'desk@example.com' },
  });

  it('records adding, editing (changed secrets by name only), switching off and deleting an integration', async () => {
    const { admin, adminId } = await adminAndMember();
    const integration = await created(
      await admin.post('/api/integrations', {
        name: 'Front desk email',
        type: 'email',
        config: emailConfig('first-smtp-password-1'),
      }),
    );
    const url = `/api/integrations/${integration.id}`;
    const edit = await admin.put(url, { name: 'Desk email', config: emailConfig('second-smtp-password-2', 2526) });
    expect(edit.statusCode, edit.body).toBe(200);
    // The same values again, the password masked and then retyped as it is: nothing changes.
    const masked = edit.json<{ config: Record<string, unknown> }>().config;
    expect((await admin.put(url, { name: 'Desk email', config: masked })).statusCode).toBe(200);
    expect(
      (await admin.put(url, { name: 'Desk email', config: emailConfig('second-smtp-password-2', 2526) })).statusCode,
    ).toBe(200);
    expect((await admin.put(url, { isActive: false })).statusCode).toBe(200);
    expect((await admin.delete(url)).statusCode).toBe(204);

    const { entries, raw } = await auditLogOf(admin);
    expect(actions(entries)).toEqual([
      'integration.created',
      'integration.updated',
      'integration.updated',
      'integration.deleted',
    ]);
    const [add, change, off, gone] = entries;
    const target = { targetType: 'integration', targetId: integration.id };
    expect(add).toEqual({
      ...add,
      ...target,
      actor: expect.objectContaining({ id: adminId, firstName: 'Ana' }),
      targetLabel: 'Front desk email',
      before: null,
      after: {
        name: 'Front desk email',
        type: 'email',
        isActive: true,
        smtpHost: '127.0.0.1',
        smtpPort: 2525,
        fromAddress: 'desk@example.com',
      },
    });
    expect(change).toMatchObject({ ...target, actor: { id: adminId }, targetLabel: 'Desk email' });
    expect(change!.before).toEqual({ name: 'Front desk email', smtpPort: 2525, password: '(changed)' });
    expect(change!.after).toEqual({ name: 'Desk email', smtpPort: 2526, password: '(changed)' });
    expect(off).toMatchObject({ ...target, before: { isActive: true }, after: { isActive: false } });
    expect(gone).toMatchObject({
      ...target,
      actor: { id: adminId },
      targetLabel: 'Desk email',
      before: { name: 'Desk email', type: 'email', isActive: false, smtpPort: 2526 },
      after: null,
    });
    expect(gone!.before).not.toHaveProperty('password');
    for (const secret of ['first-smtp-password-1', 'second-smtp-password-2', MASKED_SECRET, 'enc:v1']) {
      expect(raw).not.toContain(secret);
    }
    const stored = await t.db.select().from(auditLog).where(eq(auditLog.targetId, integration.id));
    expect(JSON.stringify(stored)).not.toContain('smtp-password');
  });

  it('records an SMS token change by name, and a webhook URL change and secret rotation without the secret', async () => {
    const { admin } = await adminAndMember();
    const sms = { accountSid: 'AC123', fromNumber: '+15550001111' };
    const texts = await created(
      await admin.post('/api/integrations', {
        name: 'Texts',
        type: 'sms',
        config: { smsSettings: { ...sms, authToken: 'twilio-token-one' } },
      }),
    );
    const tokenChange = await admin.put(`/api/integrations/${texts.id}`, {
      config: { smsSettings: { ...sms, authToken: 'twilio-token-two' } },
    });
    expect(tokenChange.statusCode).toBe(200);
    const hook = await created<{ id: string; webhookSecret: string }>(
      await admin.post('/api/integrations', {
        name: 'Building system',
        type: 'webhook',
        config: { webhookUrl: 'http://127.0.0.1:9/one' },
      }),
    );
    expect(
      (await admin.put(`/api/integrations/${hook.id}`, { config: { webhookUrl: 'http://127.0.0.1:9/two' } }))
        .statusCode,
    ).toBe(200);
    const rotated = await admin.post(`/api/integrations/${hook.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const newSecret = rotated.json<{ webhookSecret: string }>().webhookSecret;

    const { entries, raw } = await auditLogOf(admin);
    expect(actions(entries)).toEqual([
      'integration.created',
      'integration.updated',
      'integration.created',
      'integration.updated',
      'integration.secret_rotated',
    ]);
    expect(entries[0]).toMatchObject({ targetLabel: 'Texts', after: { type: 'sms', ...sms } });
    expect(entries[1]).toMatchObject({ before: { authToken: '(changed)' }, after: { authToken: '(changed)' } });
    expect(Object.keys(entries[1]!.after!)).toEqual(['authToken']);
    expect(entries[3]).toMatchObject({
      targetId: hook.id,
      before: { webhookUrl: 'http://127.0.0.1:9/one' },
      after: { webhookUrl: 'http://127.0.0.1:9/two' },
    });
    expect(entries[4]).toMatchObject({
      targetType: 'integration',
      targetId: hook.id,
      targetLabel: 'Building system',
      before: null,
      after: null,
    });
    for (const secret of ['twilio-token-one', 'twilio-token-two', hook.webhookSecret, newSecret, 'whsec_']) {
      expect(raw).not.toContain(secret);
    }
  });

  it('records API keys created (name and prefix, never the key) and revoked once', async () => {
    const { admin, adminId } = await adminAndMember();
    const api = await created<{ id: string; apiKey: string }>(
      await admin.post('/api/integrations', { name: 'Portal', type: 'api', config: {} }),
    );
    const key = await created<{ id: string; key: string; prefix: string }>(
      await admin.post(`/api/integrations/${api.id}/api-keys`, { name: 'Reception kiosk' }),
    );
    const revoke = `/api/integrations/${api.id}/api-keys/${key.id}`;
    expect((await admin.delete(revoke)).statusCode).toBe(204);
    expect((await admin.delete(revoke)).statusCode).toBe(204);

    const { entries, raw } = await auditLogOf(admin);
    expect(actions(entries)).toEqual(['integration.created', 'api_key.created', 'api_key.created', 'api_key.revoked']);
    expect(entries[1]).toMatchObject({ targetType: 'api_key', targetLabel: 'Default key' });
    expect(entries[1]!.after).toEqual({ name: 'Default key', prefix: api.apiKey.slice(0, 11) });
    expect(entries[2]).toMatchObject({
      actor: { id: adminId },
      targetType: 'api_key',
      targetId: key.id,
      targetLabel: 'Reception kiosk',
      before: null,
      after: { name: 'Reception kiosk', prefix: key.prefix },
    });
    expect(entries[3]).toMatchObject({
      actor: { id: adminId },
      targetType: 'api_key',
      targetId: key.id,
      targetLabel: 'Reception kiosk',
      before: { name: 'Reception kiosk', prefix: key.prefix },
      after: null,
    });
    expect(raw).not.toContain(key.key);
    expect(raw).not.toContain(api.apiKey);
    expect(raw).not.toContain(key.key.slice(12));
  });

  it('records nothing for refused changes: members, validation, wrong type, another organization', async () => {
    const { admin, member } = await adminAndMember();
    const hook = await created(
      await admin.post('/api/integrations', {
        name: 'Hook',
        type: 'webhook',
        config: { webhookUrl: 'http://127.0.0.1:9/x' },
      }),
    );
    const api = await created(await admin.post('/api/integrations', { name: 'Portal', type: 'api', config: {} }));
    const key = await created(await admin.post(`/api/integrations/${api.id}/api-keys`, { name: 'Kiosk' }));
    const before = (await auditLogOf(admin)).entries.length;
    expect(before).toBe(4);

    const forbidden = [
      await member.post('/api/integrations', { name: 'X', type: 'webhook', config: { webhookUrl: 'http://a.b/' } }),
      await member.put(`/api/integrations/${hook.id}`, { name: 'Mine' }),
      await member.delete(`/api/integrations/${hook.id}`),
      await member.post(`/api/integrations/${hook.id}/rotate-secret`),
      await member.post(`/api/integrations/${api.id}/api-keys`, { name: 'Mine' }),
      await member.delete(`/api/integrations/${api.id}/api-keys/${key.id}`),
    ];
    expect(forbidden.map((r) => r.statusCode)).toEqual(Array(6).fill(403));
    const refused = [
      await admin.post('/api/integrations', { name: 'No URL', type: 'webhook', config: {} }),
      await admin.put(`/api/integrations/${hook.id}`, { name: 'Renamed', config: { webhookUrl: '' } }),
      await admin.put(`/api/integrations/${hook.id}`, { name: 'Renamed', type: 'email' }),
      await admin.post(`/api/integrations/${api.id}/rotate-secret`),
      await admin.post(`/api/integrations/${hook.id}/api-keys`, { name: 'Key' }),
      await admin.post(`/api/integrations/${api.id}/api-keys`, { name: '' }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual(Array(6).fill(400));

    const stranger = new Client(t);
    await stranger.register();
    await stranger.createOrganization('Elsewhere');
    const strangers = [
      await stranger.put(`/api/integrations/${hook.id}`, { name: 'Theirs' }),
      await stranger.delete(`/api/integrations/${hook.id}`),
      await stranger.post(`/api/integrations/${hook.id}/rotate-secret`),
      await stranger.post(`/api/integrations/${api.id}/api-keys`, { name: 'Theirs' }),
      await stranger.delete(`/api/integrations/${api.id}/api-keys/${key.id}`),
    ];
    expect(strangers.map((r) => r.statusCode)).toEqual(Array(5).fill(404));
    expect((await auditLogOf(admin)).entries).toHaveLength(before);
    expect((await auditLogOf(stranger)).entries).toEqual([]);
  });
});

describe('mailroom and storage location entries', () => {
  it('records mailrooms and locations created, updated (changed fields only) and deleted', async () => {
    const { admin, adminId } = await adminAndMember();
    const lobby = await created(await admin.post('/api/mailrooms', { name: 'Lobby', description: 'Ground floor' }));
    const annex = await created(await admin.post('/api/mailrooms', { name: 'Annex' }));
    const renamed = await admin.put(`/api/mailrooms/${lobby.id}`, { name: 'Main Lobby', isActive: false });
    expect(renamed.statusCode).toBe(200);
    expect((await admin.put(`/api/mailrooms/${lobby.id}`, { name: 'Main Lobby' })).statusCode).toBe(200);
    const shelf = await created(
      await admin.post('/api/mailroom-locations', {
        name: 'Shelf A',
        type: 'shelf',
        capacity: 20,
        mailroomId: lobby.id,
      }),
    );
    const moved = await admin.put(`/api/mailroom-locations/${shelf.id}`, { mailroomId: annex.id, capacity: 30 });
    expect(moved.statusCode).toBe(200);
    expect((await admin.put(`/api/mailroom-locations/${shelf.id}`, { capacity: 30 })).statusCode).toBe(200);
    expect((await admin.delete(`/api/mailroom-locations/${shelf.id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/mailrooms/${lobby.id}`)).statusCode).toBe(204);

    const { entries } = await auditLogOf(admin);
    expect(actions(entries)).toEqual([
      'mailroom.created',
      'mailroom.created',
      'mailroom.updated',
      'location.created',
      'location.updated',
      'location.deleted',
      'mailroom.deleted',
    ]);
    expect(entries.every((e) => e.actor?.id === adminId)).toBe(true);
    const room = { targetType: 'mailroom', targetId: lobby.id };
    expect(entries[0]).toMatchObject({
      ...room,
      targetLabel: 'Lobby',
      before: null,
      after: { name: 'Lobby', description: 'Ground floor', isActive: true },
    });
    expect(entries[2]).toMatchObject({ ...room, targetLabel: 'Main Lobby' });
    expect(entries[2]!.before).toEqual({ name: 'Lobby', isActive: true });
    expect(entries[2]!.after).toEqual({ name: 'Main Lobby', isActive: false });
    const loc = { targetType: 'location', targetId: shelf.id, targetLabel: 'Shelf A' };
    expect(entries[3]).toMatchObject({
      ...loc,
      before: null,
      after: { name: 'Shelf A', mailroom: 'Main Lobby', type: 'shelf', capacity: 20, notes: null, isActive: true },
    });
    expect(entries[4]).toMatchObject(loc);
    expect(entries[4]!.before).toEqual({ mailroom: 'Main Lobby', capacity: 20 });
    expect(entries[4]!.after).toEqual({ mailroom: 'Annex', capacity: 30 });
    expect(entries[5]).toMatchObject({ ...loc, before: { mailroom: 'Annex', capacity: 30 }, after: null });
    expect(entries[6]).toMatchObject({
      ...room,
      targetLabel: 'Main Lobby',
      before: { name: 'Main Lobby' },
      after: null,
    });
  });

  it('records nothing for refused changes: members, validation, conflicts, another organization', async () => {
    const { admin, member } = await adminAndMember();
    const room = await created(await admin.post('/api/mailrooms', { name: 'Lobby' }));
    const loc = await created(
      await admin.post('/api/mailroom-locations', { name: 'Shelf A', type: 'shelf', mailroomId: room.id }),
    );
    expect((await auditLogOf(admin)).entries).toHaveLength(2);

    const forbidden = await everyMailroomWrite(member, room.id, loc.id);
    expect(forbidden.map((r) => r.statusCode)).toEqual(Array(6).fill(403));
    const refused = [
      await admin.post('/api/mailrooms', { name: '' }),
      await admin.put(`/api/mailrooms/${room.id}`, { name: '' }),
      await admin.post('/api/mailroom-locations', { name: 'Bin', type: 'bin', capacity: 0, mailroomId: room.id }),
      await admin.put(`/api/mailroom-locations/${loc.id}`, { capacity: 0 }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual(Array(4).fill(400));
    // Not empty: it still has a location.
    expect((await admin.delete(`/api/mailrooms/${room.id}`)).statusCode).toBe(409);

    const stranger = new Client(t);
    await stranger.register();
    await stranger.createOrganization('Elsewhere');
    const theirs = await created(await stranger.post('/api/mailrooms', { name: 'Theirs' }));
    const strangers = [
      await stranger.put(`/api/mailrooms/${room.id}`, { name: 'Taken' }),
      await stranger.delete(`/api/mailroom-locations/${loc.id}`),
      await stranger.put(`/api/mailroom-locations/${loc.id}`, { name: 'Taken' }),
      await stranger.post('/api/mailroom-locations', { name: 'Sneaky', type: 'bin', mailroomId: room.id }),
      await admin.put(`/api/mailroom-locations/${loc.id}`, { mailroomId: theirs.id }),
    ];
    expect(strangers.map((r) => r.statusCode)).toEqual(Array(5).fill(404));
    expect((await auditLogOf(admin)).entries).toHaveLength(2);
    expect(actions((await auditLogOf(stranger)).entries)).toEqual(['mailroom.created']);
  });
});
