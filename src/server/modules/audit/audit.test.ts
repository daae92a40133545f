import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TOTAL_COUNT_HEADER } from '../../../contract';
import { users } from '../../db/schema';
import { Client, createTestApp, joinAs, type TestApp } from '../../test/harness';

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
