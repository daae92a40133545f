import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MEMBER_MESSAGES } from '../../../contract';
import { auditLog, organizationMembers, organizations, organizationSettings, userInvitations } from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import { EXPECTED_DEFAULT_SETTINGS } from '../../test/default-settings';
import { adminAndMember, Client, createTestApp, joinAs, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

async function auditRows(organizationId: string) {
  return t.db.select().from(auditLog).where(eq(auditLog.organizationId, organizationId)).orderBy(auditLog.seq);
}

const orgWithMember = () => adminAndMember(t);

describe('POST /api/organizations', () => {
  it('makes the creator admin, starts a 7-day trial and writes default settings', async () => {
    const c = new Client(t);
    await c.register();
    const res = await c.post('/api/organizations', {
      name: '  Harbor View Residences ',
      address: '1 Quay St',
      contactName: 'Dana',
      contactEmail: 'Desk@Harbor.Example',
      contactPhone: '',
      timezone: 'Europe/Berlin',
    });
    expect(res.statusCode).toBe(201);
    const org = res.json();
    expect(org).toMatchObject({
      name: 'Harbor View Residences',
      role: 'admin',
      planType: 'trial',
      subscriptionStatus: 'trial',
      maxUsers: 5,
      maxPackagesPerMonth: 500,
      currentMonthPackages: 0,
      contactEmail: 'desk@harbor.example',
      contactPhone: null,
      timezone: 'Europe/Berlin',
      billingCycle: 'monthly',
    });
    const days = (Date.parse(org.trialEndDate) - Date.parse(org.trialStartDate)) / 86_400_000;
    expect(days).toBe(7);
    const [settings] = await t.db
      .select()
      .from(organizationSettings)
      .where(eq(organizationSettings.organizationId, org.id));
    expect(settings).toMatchObject(EXPECTED_DEFAULT_SETTINGS);
  });

  it.each([
    [{ name: '' }, 'Organization name is required'],
    [{}, 'Organization name is required'],
    [{ name: 'x'.repeat(256) }, 'Organization name must be less than 255 characters'],
    [{ name: 'Ok', contactEmail: 'nope' }, 'Please enter a valid email address'],
    [{ name: 'Ok', contactPhone: '1'.repeat(51) }, 'Contact phone must be less than 50 characters'],
    [{ name: 'Ok', timezone: 'Mars/Olympus' }, 'Unknown timezone'],
    [{ name: 42 }, 'Organization name is required'],
  ])('refuses %o and writes nothing', async (body, message) => {
    const c = new Client(t);
    await c.register();
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(organizations);
    const res = await c.post('/api/organizations', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    const after = await t.db.select({ n: sql<number>`count(*)::int` }).from(organizations);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('answers 401 when signed out', async () => {
    expect((await new Client(t).post('/api/organizations', { name: 'X' })).statusCode).toBe(401);
  });
});

describe('GET /api/organizations', () => {
  it("lists only the caller's organizations with the caller's role", async () => {
    const { admin, member, org } = await orgWithMember();
    const second = await admin.createOrganization('Second Site');
    const stranger = new Client(t);
    await stranger.register();
    await stranger.createOrganization('Elsewhere');

    const mine = (await admin.get('/api/organizations')).json();
    expect(mine.map((o: { id: string }) => o.id)).toEqual([org.id, second.id]);
    expect(mine.every((o: { role: string }) => o.role === 'admin')).toBe(true);
    const theirs = (await member.get('/api/organizations')).json();
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({ id: org.id, role: 'member' });
    expect(JSON.stringify(theirs)).not.toContain('Elsewhere');
  });

  it('answers 401 when signed out', async () => {
    expect((await new Client(t).get('/api/organizations')).statusCode).toBe(401);
  });
});

describe('GET and PUT /api/organizations/:id', () => {
  it('lets members read and only admins update', async () => {
    const { admin, member, org } = await orgWithMember();
    expect((await member.get(`/api/organizations/${org.id}`)).json().name).toBe('Harbor View');
    const denied = await member.put(`/api/organizations/${org.id}`, { name: 'Hijacked' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Only organization admins can do this');
    const ok = await admin.put(`/api/organizations/${org.id}`, {
      name: 'Harbor View West',
      contactPhone: '+1 555 0100',
      logoUrl: 'https://cdn.example.com/logo.png',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      name: 'Harbor View West',
      contactPhone: '+1 555 0100',
      logoUrl: 'https://cdn.example.com/logo.png',
    });
    expect((await admin.get(`/api/organizations/${org.id}`)).json().name).toBe('Harbor View West');
  });

  it('validates the update and changes nothing on error', async () => {
    const { admin, org } = await orgWithMember();
    for (const [body, message] of [
      [{ name: '' }, 'Organization name is required'],
      [{ logoUrl: 'not a url' }, 'Logo URL must be a valid URL'],
      [{ contactEmail: 'bad' }, 'Please enter a valid email address'],
    ] as const) {
      const res = await admin.put(`/api/organizations/${org.id}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await admin.get(`/api/organizations/${org.id}`)).json().name).toBe('Harbor View');
  });

  it("answers 404 for another organization's id, and for a malformed one 400", async () => {
    const { admin } = await orgWithMember();
    const stranger = new Client(t);
    await stranger.register();
    const other = await stranger.createOrganization('Not yours');
    expect((await admin.get(`/api/organizations/${other.id}`)).statusCode).toBe(404);
    expect((await admin.put(`/api/organizations/${other.id}`, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await admin.get(`/api/organizations/${other.id}/members`)).statusCode).toBe(404);
    expect((await stranger.get(`/api/organizations/${other.id}`)).json().name).toBe('Not yours');
    expect((await admin.get('/api/organizations/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('members', () => {
  it('lists members with their user for admins only', async () => {
    const { admin, member, org, memberId } = await orgWithMember();
    const res = await admin.get(`/api/organizations/${org.id}/members`);
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list).toHaveLength(2);
    expect(list[1]).toMatchObject({ userId: memberId, role: 'member', organizationId: org.id });
    expect(list[1].user).toHaveProperty('email');
    expect(list[1].user).not.toHaveProperty('password');
    expect((await member.get(`/api/organizations/${org.id}/members`)).statusCode).toBe(403);
  });

  it('removes a member; the removed member then cannot use the organization', async () => {
    const { admin, member, org, memberId } = await orgWithMember();
    expect((await member.get('/api/dashboard/stats')).statusCode).toBe(200);
    const res = await admin.delete(`/api/organizations/${org.id}/members/${memberId}`);
    expect(res.statusCode).toBe(204);
    const after = await member.get('/api/dashboard/stats');
    expect(after.statusCode).toBe(403);
    expect(after.json().message).toBe('You are not a member of this organization');
    expect((await admin.delete(`/api/organizations/${org.id}/members/${memberId}`)).statusCode).toBe(404);
  });

  it('refuses removing yourself, a member removing others, and removing the last admin', async () => {
    const { admin, member, org, memberId } = await orgWithMember();
    const adminId = (await admin.get('/api/auth/user')).json().id;
    const self = await admin.delete(`/api/organizations/${org.id}/members/${adminId}`);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('Cannot remove yourself from the organization');
    expect((await member.delete(`/api/organizations/${org.id}/members/${adminId}`)).statusCode).toBe(403);
    // A second admin may not remove the only other admin either once that would leave none.
    const promoted = await admin.put(`/api/organizations/${org.id}/members/${memberId}`, { role: 'admin' });
    expect(promoted.statusCode).toBe(200);
    expect((await member.delete(`/api/organizations/${org.id}/members/${adminId}`)).statusCode).toBe(204);
    const members = (await member.get(`/api/organizations/${org.id}/members`)).json();
    expect(members).toHaveLength(1);
  });

  it("answers 404 for another organization's member", async () => {
    const { admin, org } = await orgWithMember();
    const stranger = new Client(t);
    const { user } = await stranger.register();
    const other = await stranger.createOrganization('Other');
    expect((await admin.delete(`/api/organizations/${org.id}/members/${user.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/organizations/${other.id}/members/${user.id}`)).statusCode).toBe(404);
  });
});

describe('the x-organization-id header', () => {
  it('is required, must name one of the caller’s organizations, and answers 403 otherwise', async () => {
    const { admin } = await orgWithMember();
    const stranger = new Client(t);
    await stranger.register();
    const other = await stranger.createOrganization('Other');
    const missing = await admin.get('/api/dashboard/stats', { 'x-organization-id': '' });
    expect(missing.statusCode).toBe(400);
    const foreign = await admin.get('/api/dashboard/stats', { 'x-organization-id': other.id });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe('You are not a member of this organization');
    const garbage = await admin.get('/api/dashboard/stats', { 'x-organization-id': "1' or '1'='1" });
    expect(garbage.statusCode).toBe(403);
  });
});

describe('organization update audit', () => {
  it('records only the changed fields, before and after, and nothing for a refused or empty change', async () => {
    const { admin, member, org } = await orgWithMember();
    const adminId = (await admin.get('/api/auth/user')).json().id;
    await admin.put(`/api/organizations/${org.id}`, { name: 'Harbor View', contactPhone: '+1 555 0100' });
    const rows = await auditRows(org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'organization.updated',
      actorId: adminId,
      targetType: 'organization',
      targetId: org.id,
      targetLabel: 'Harbor View',
      before: { contactPhone: null },
      after: { contactPhone: '+1 555 0100' },
    });
    // Nothing changed, a validation failure, a member: no entry.
    await admin.put(`/api/organizations/${org.id}`, { name: 'Harbor View' });
    await admin.put(`/api/organizations/${org.id}`, { name: '' });
    await member.put(`/api/organizations/${org.id}`, { name: 'Hijacked' });
    expect(await auditRows(org.id)).toHaveLength(1);
  });
});

describe('PUT /api/organizations/:id/members/:userId', () => {
  it('changes the role, answers the member, audits it, and the member has the new role on the next request', async () => {
    const { admin, member, org, memberId } = await orgWithMember();
    const adminId = (await admin.get('/api/auth/user')).json().id;
    expect((await member.get('/api/user-invitations')).statusCode).toBe(403);
    const res = await admin.put(`/api/organizations/${org.id}/members/${memberId}`, { role: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ userId: memberId, organizationId: org.id, role: 'admin' });
    expect(res.json().user).toHaveProperty('email');
    expect((await member.get('/api/user-invitations')).statusCode).toBe(200);
    expect((await member.get('/api/organizations')).json()[0].role).toBe('admin');
    const [entry] = await auditRows(org.id);
    expect(entry).toMatchObject({
      action: 'member.role_changed',
      actorId: adminId,
      targetType: 'member',
      targetId: memberId,
      targetLabel: res.json().user.email,
      before: { role: 'member' },
      after: { role: 'admin' },
    });

    const back = await admin.put(`/api/organizations/${org.id}/members/${memberId}`, { role: 'member' });
    expect(back.json().role).toBe('member');
    expect((await member.get('/api/user-invitations')).statusCode).toBe(403);
    // Setting the role it already has changes nothing and records nothing.
    expect((await admin.put(`/api/organizations/${org.id}/members/${memberId}`, { role: 'member' })).statusCode).toBe(
      200,
    );
    expect(await auditRows(org.id)).toHaveLength(2);
  });

  it('refuses demoting the last admin (409 last_admin) but lets an admin step down when another remains', async () => {
    const { admin, org, memberId } = await orgWithMember();
    const adminId = (await admin.get('/api/auth/user')).json().id;
    const res = await admin.put(`/api/organizations/${org.id}/members/${adminId}`, { role: 'member' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: MEMBER_MESSAGES.lastAdminDemote, code: 'last_admin' });
    expect(await auditRows(org.id)).toHaveLength(0);
    await admin.put(`/api/organizations/${org.id}/members/${memberId}`, { role: 'admin' });
    const stepDown = await admin.put(`/api/organizations/${org.id}/members/${adminId}`, { role: 'member' });
    expect(stepDown.statusCode).toBe(200);
    expect((await admin.get(`/api/organizations/${org.id}/members`)).statusCode).toBe(403);
  });

  it('lets only one of two admins demoting each other at once succeed', async () => {
    const { admin, member, org, memberId } = await orgWithMember();
    const adminId = (await admin.get('/api/auth/user')).json().id;
    await admin.put(`/api/organizations/${org.id}/members/${memberId}`, { role: 'admin' });
    const results = await Promise.all([
      admin.put(`/api/organizations/${org.id}/members/${memberId}`, { role: 'member' }),
      member.put(`/api/organizations/${org.id}/members/${adminId}`, { role: 'member' }),
    ]);
    const codes = results.map((r) => r.statusCode);
    // The second either finds it is no longer admin (403) or is the last admin (409).
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    const admins = await t.db
      .select()
      .from(organizationMembers)
      .where(sql`${organizationMembers.organizationId} = ${org.id} and ${organizationMembers.role} = 'admin'`);
    expect(admins).toHaveLength(1);
  });

  it('validates the role and answers 404 for unknown members, other organizations and non-members', async () => {
    const { admin, member, org, memberId } = await orgWithMember();
    const url = `/api/organizations/${org.id}/members/${memberId}`;
    for (const body of [{ role: 'owner' }, {}, { role: 7 }]) {
      const res = await admin.put(url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Role must be admin or member');
    }
    expect(
      (await admin.put(`/api/organizations/${org.id}/members/${crypto.randomUUID()}`, { role: 'admin' })).statusCode,
    ).toBe(404);
    expect((await admin.put(`/api/organizations/${org.id}/members/not-a-uuid`, { role: 'admin' })).statusCode).toBe(
      400,
    );
    const stranger = new Client(t);
    const { user } = await stranger.register();
    const other = await stranger.createOrganization('Other');
    // A user of another organization, and another organization's path: 404 both.
    expect((await admin.put(`/api/organizations/${org.id}/members/${user.id}`, { role: 'admin' })).statusCode).toBe(
      404,
    );
    expect((await admin.put(`/api/organizations/${other.id}/members/${user.id}`, { role: 'member' })).statusCode).toBe(
      404,
    );
    expect((await stranger.put(url, { role: 'admin' })).statusCode).toBe(404);
    const denied = await member.put(url, { role: 'admin' });
    expect(denied.statusCode).toBe(403);
    expect((await new Client(t).put(url, { role: 'admin' })).statusCode).toBe(401);
    expect(await auditRows(org.id)).toHaveLength(0);
    expect(await auditRows(other.id)).toHaveLength(0);
  });
});

describe('member removal audit', () => {
  it('records member.removed with the email and role, and nothing for refused removals', async () => {
    const { admin, member, org, memberId } = await orgWithMember();
    const adminId = (await admin.get('/api/auth/user')).json().id;
    const email = (await member.get('/api/auth/user')).json().email;
    await admin.delete(`/api/organizations/${org.id}/members/${adminId}`); // yourself: 400
    await member.delete(`/api/organizations/${org.id}/members/${adminId}`); // a member: 403
    expect(await auditRows(org.id)).toHaveLength(0);
    expect((await admin.delete(`/api/organizations/${org.id}/members/${memberId}`)).statusCode).toBe(204);
    const rows = await auditRows(org.id);
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'member.removed',
        actorId: adminId,
        targetType: 'member',
        targetId: memberId,
        targetLabel: email,
        before: { role: 'member' },
      }),
    ]);
  });
});

describe('with membership caching on (CACHE_TTL_MS=60000)', () => {
  let cached: TestApp;
  beforeAll(async () => {
    cached = await createTestApp({ CACHE_TTL_MS: '60000' });
  });

  it('a role change and a removal take effect on the next request of that member', async () => {
    const admin = new Client(cached);
    await admin.register();
    const org = await admin.createOrganization('Cached');
    const { client: member, userId: memberId } = await joinAs(cached, org.id);
    // Both lookups are now cached for a minute.
    expect((await member.get('/api/user-invitations')).statusCode).toBe(403);
    expect((await member.get(`/api/organizations/${org.id}/members`)).statusCode).toBe(403);

    expect((await admin.put(`/api/organizations/${org.id}/members/${memberId}`, { role: 'admin' })).statusCode).toBe(
      200,
    );
    expect((await member.get('/api/user-invitations')).statusCode).toBe(200);
    expect((await member.get(`/api/organizations/${org.id}/members`)).statusCode).toBe(200);

    expect((await admin.put(`/api/organizations/${org.id}/members/${memberId}`, { role: 'member' })).statusCode).toBe(
      200,
    );
    expect((await member.get('/api/user-invitations')).statusCode).toBe(403);

    expect((await admin.delete(`/api/organizations/${org.id}/members/${memberId}`)).statusCode).toBe(204);
    expect((await member.get('/api/dashboard/stats')).statusCode).toBe(403);
  });

  it('a user who joins through an invitation is a member on the next request, even after a refused one', async () => {
    const admin = new Client(cached);
    await admin.register();
    const org = await admin.createOrganization('Cached Join');
    const invitee = new Client(cached);
    const { email } = await invitee.register();
    invitee.organizationId = org.id;
    expect((await invitee.get('/api/dashboard/stats')).statusCode).toBe(403); // "not a member" now cached
    // The invitation row is written directly: this app has no SMTP server to read the link from.
    const token = 'cached-join-token';
    await cached.db.insert(userInvitations).values({
      organizationId: org.id,
      email,
      role: 'member',
      token: hashToken(token),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    expect((await invitee.post('/api/invitations/accept', { token })).statusCode).toBe(200);
    expect((await invitee.get('/api/dashboard/stats')).statusCode).toBe(200);
  });
});
