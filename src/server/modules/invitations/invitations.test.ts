import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { INVITATION_MESSAGES } from '../../../contract';
import {
  auditLog,
  notificationJobs,
  organizationMembers,
  organizations,
  rateLimits,
  userInvitations,
  users,
} from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import { Client, createTestApp, joinAs, newAccount, type TestApp } from '../../test/harness';
import { mailTestApp } from '../../test/smtp';
import { INVITATIONS_PER_HOUR, RESENDS_PER_HOUR, TOO_MANY_INVITATIONS } from './invitations.service';

const { t, smtp, workers } = await mailTestApp();
// Its emails go through the outbox (decision 054): a worker sends them, as in production.
workers.start(t);

const DAY = 86_400_000;

/** An admin (Dana Admin) with an organization selected. */
async function adminWithOrg(name = 'Harbor View') {
  const admin = new Client(t);
  const { user } = await admin.register({ firstName: 'Dana', lastName: 'Admin' });
  const org = await admin.createOrganization(name);
  return { admin, adminId: user.id, org };
}

/** The newest invitation email to `to`, taken out of the mailbox, and the token of its link. */
async function mailTo(to: string) {
  const mail = await smtp.waitFor(to, { subject: /invit/i });
  smtp.received.splice(smtp.received.indexOf(mail), 1);
  const token = /\/auth\?invitation=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no invitation link in mail to ${to}`);
  return { mail, token };
}

/** Invites `email` and answers the invitation and the emailed token. */
async function invite(admin: Client, email: string, role: 'admin' | 'member' = 'member') {
  const res = await admin.post('/api/user-invitations', { email, role });
  if (res.statusCode !== 201) throw new Error(`invite failed: ${res.statusCode} ${res.body}`);
  const { token } = await mailTo(email.trim().toLowerCase());
  return { invitation: res.json<{ id: string; email: string }>(), token };
}

const freshEmail = () => newAccount('invitee').email;

async function auditRows(organizationId: string) {
  return t.db.select().from(auditLog).where(eq(auditLog.organizationId, organizationId)).orderBy(auditLog.seq);
}

async function invitationRows(organizationId: string) {
  return t.db.select().from(userInvitations).where(eq(userInvitations.organizationId, organizationId));
}

async function memberRole(organizationId: string, userId: string) {
  const [row] = await t.db
    .select({ role: organizationMembers.role })
    .from(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
  return row?.role;
}

async function userCount() {
  const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row!.n;
}

const expireInvitation = (id: string) =>
  t.db
    .update(userInvitations)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(userInvitations.id, id));

const setMaxUsers = (organizationId: string, maxUsers: number) =>
  t.db.update(organizations).set({ maxUsers }).where(eq(organizations.id, organizationId));

describe('POST /api/user-invitations', () => {
  it('stores a hashed token, emails the link with organization, inviter and role, and audits it', async () => {
    const { admin, adminId, org } = await adminWithOrg('Harbor View');
    const address = freshEmail();
    const before = Date.now();
    const res = await admin.post('/api/user-invitations', { email: `  ${address.toUpperCase()} `, role: 'admin' });
    expect(res.statusCode).toBe(201);
    const invitation = res.json();
    expect(invitation).toMatchObject({
      email: address,
      role: 'admin',
      status: 'pending',
      invitedBy: { id: adminId, firstName: 'Dana', lastName: 'Admin' },
    });
    const ttl = Date.parse(invitation.expiresAt) - before;
    expect(ttl).toBeGreaterThan(7 * DAY - 60_000);
    expect(ttl).toBeLessThan(7 * DAY + 60_000);

    const { mail, token } = await mailTo(address);
    expect(mail.subject).toContain('Harbor View');
    expect(mail.text).toContain('Dana Admin invited you to join Harbor View on Pigeonhole as an admin');
    expect(mail.text).toContain(`http://pigeonhole.test/auth?invitation=${token}`);
    expect(token.length).toBeGreaterThanOrEqual(43);

    const [row] = await invitationRows(org.id);
    expect(row!.token).toBe(hashToken(token));
    expect(row!.token).not.toContain(token);
    expect(row!.usedAt).toBeNull();

    const audit = await auditRows(org.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'invitation.sent',
      actorId: adminId,
      targetType: 'invitation',
      targetId: invitation.id,
      targetLabel: address,
      after: { role: 'admin' },
    });
  });

  it('defaults the role to member', async () => {
    const { admin } = await adminWithOrg();
    const address = freshEmail();
    const res = await admin.post('/api/user-invitations', { email: address });
    expect(res.statusCode).toBe(201);
    expect(res.json().role).toBe('member');
    const { mail } = await mailTo(address);
    expect(mail.text).toContain('as a member');
  });

  it.each([
    [{ email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ email: '' }, 'Email is required'],
    [{}, 'Email is required'],
    [{ email: 42 }, 'Email is required'],
    [{ email: 'ok@example.com', role: 'owner' }, 'Role must be admin or member'],
  ])('refuses %o with 400 and writes nothing', async (body, message) => {
    const { admin, org } = await adminWithOrg();
    const res = await admin.post('/api/user-invitations', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await invitationRows(org.id)).toHaveLength(0);
    expect(await auditRows(org.id)).toHaveLength(0);
  });

  it('refuses someone already a member (409 already_member), whatever the case of the email', async () => {
    const { admin, org } = await adminWithOrg();
    const member = new Client(t);
    const { email, user } = await member.register();
    await t.db.insert(organizationMembers).values({ organizationId: org.id, userId: user.id, role: 'member' });
    const res = await admin.post('/api/user-invitations', { email: email.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: INVITATION_MESSAGES.alreadyMember, code: 'already_member' });
    const self = await admin.post('/api/user-invitations', { email: (await admin.get('/api/auth/user')).json().email });
    expect(self.json().code).toBe('already_member');
    expect(await invitationRows(org.id)).toHaveLength(0);
    expect(await auditRows(org.id)).toHaveLength(0);
  });

  it('refuses a second invitation while one is pending (409 already_invited), and replaces an expired one', async () => {
    const { admin, org } = await adminWithOrg();
    const address = freshEmail();
    const { invitation } = await invite(admin, address);
    const again = await admin.post('/api/user-invitations', { email: address, role: 'admin' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: INVITATION_MESSAGES.alreadyInvited, code: 'already_invited' });
    expect(await auditRows(org.id)).toHaveLength(1);

    await expireInvitation(invitation.id);
    const replaced = await admin.post('/api/user-invitations', { email: address, role: 'admin' });
    expect(replaced.statusCode).toBe(201);
    await mailTo(address);
    const rows = await invitationRows(org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: replaced.json().id, role: 'admin' });
  });

  it('lets only one of two simultaneous invitations of the same email through', async () => {
    const { admin, org } = await adminWithOrg();
    const address = freshEmail();
    const results = await Promise.all([
      admin.post('/api/user-invitations', { email: address }),
      admin.post('/api/user-invitations', { email: address }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await invitationRows(org.id)).toHaveLength(1);
    await mailTo(address);
  });

  it('answers 403 to members, 401 signed out, 403 for another organization in the header', async () => {
    const { org } = await adminWithOrg();
    const { client: member } = await joinAs(t, org.id);
    const denied = await member.post('/api/user-invitations', { email: freshEmail() });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Only organization admins can do this');
    expect((await new Client(t).post('/api/user-invitations', { email: freshEmail() })).statusCode).toBe(401);
    const other = await adminWithOrg('Elsewhere');
    const foreign = await other.admin.post(
      '/api/user-invitations',
      { email: freshEmail() },
      {
        'x-organization-id': org.id,
      },
    );
    expect(foreign.statusCode).toBe(403);
    expect(await invitationRows(org.id)).toHaveLength(0);
  });
});

describe('GET /api/user-invitations', () => {
  it('lists open invitations newest first, with status and inviter; used ones are not listed', async () => {
    const { admin, adminId } = await adminWithOrg();
    const [a, b, c] = [freshEmail(), freshEmail(), freshEmail()];
    const first = await invite(admin, a);
    const second = await invite(admin, b, 'admin');
    const third = await invite(admin, c);
    await expireInvitation(first.invitation.id);
    // c registers through the link: no longer listed.
    await new Client(t).register({ email: c, invitationToken: third.token });

    const res = await admin.get('/api/user-invitations');
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((i: { email: string }) => i.email)).toEqual([b, a]);
    expect(list[0]).toMatchObject({ role: 'admin', status: 'pending', invitedBy: { id: adminId } });
    expect(list[1]).toMatchObject({ role: 'member', status: 'expired' });
    expect(list[0]).not.toHaveProperty('token');
    expect(second.invitation.id).toBe(list[0].id);
  });

  it("shows only the organization's own invitations; members 403, signed out 401", async () => {
    const { admin, org } = await adminWithOrg();
    const other = await adminWithOrg('Other');
    await invite(other.admin, freshEmail());
    expect((await admin.get('/api/user-invitations')).json()).toEqual([]);
    const { client: member } = await joinAs(t, org.id);
    expect((await member.get('/api/user-invitations')).statusCode).toBe(403);
    expect((await new Client(t).get('/api/user-invitations')).statusCode).toBe(401);
  });
});

describe('GET /api/invitations/verify/:token', () => {
  it('answers email, organization name and role without a session', async () => {
    const { admin } = await adminWithOrg('Quay Offices');
    const address = freshEmail();
    const { token } = await invite(admin, address, 'admin');
    const res = await new Client(t).get(`/api/invitations/verify/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: address, organizationName: 'Quay Offices', role: 'admin' });
  });

  it('answers 404 for unknown, expired, used and revoked tokens', async () => {
    const { admin } = await adminWithOrg();
    const anonymous = new Client(t);
    expect((await anonymous.get('/api/invitations/verify/nope')).statusCode).toBe(404);
    expect((await anonymous.get(`/api/invitations/verify/${'x'.repeat(43)}`)).json()).toEqual({
      message: INVITATION_MESSAGES.invalid,
      code: 'invalid_invitation',
    });

    const expired = await invite(admin, freshEmail());
    await expireInvitation(expired.invitation.id);
    expect((await anonymous.get(`/api/invitations/verify/${expired.token}`)).statusCode).toBe(404);

    const usedEmail = freshEmail();
    const used = await invite(admin, usedEmail);
    await new Client(t).register({ email: usedEmail, invitationToken: used.token });
    expect((await anonymous.get(`/api/invitations/verify/${used.token}`)).statusCode).toBe(404);

    const revoked = await invite(admin, freshEmail());
    expect((await admin.delete(`/api/user-invitations/${revoked.invitation.id}`)).statusCode).toBe(204);
    expect((await anonymous.get(`/api/invitations/verify/${revoked.token}`)).statusCode).toBe(404);

    // Longer than the router's parameter limit (100): a JSON 4xx, never a 500.
    const long = await anonymous.get(`/api/invitations/verify/${'y'.repeat(201)}`);
    expect(long.statusCode).toBe(414);
    expect(long.json().message).toBeTruthy();
  });
});

describe('POST /api/register with invitationToken', () => {
  it('creates the account and the membership with the invited role, uses the token and audits it', async () => {
    const { admin, org } = await adminWithOrg();
    const address = freshEmail();
    const { invitation, token } = await invite(admin, address, 'admin');
    const invitee = new Client(t);
    const res = await invitee.post('/api/register', { ...newAccount(), email: address, invitationToken: token });
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({ email: address, invitation: { status: 'joined', organizationId: org.id } });
    expect(await memberRole(org.id, user.id)).toBe('admin');
    const mine = (await invitee.get('/api/organizations')).json();
    expect(mine).toEqual([expect.objectContaining({ id: org.id, role: 'admin' })]);
    invitee.organizationId = org.id;
    expect((await invitee.get('/api/user-invitations')).statusCode).toBe(200);

    const [row] = await t.db.select().from(userInvitations).where(eq(userInvitations.id, invitation.id));
    expect(row!.usedAt).not.toBeNull();
    const accepted = (await auditRows(org.id)).at(-1);
    expect(accepted).toMatchObject({
      action: 'invitation.accepted',
      actorId: user.id,
      targetId: invitation.id,
      targetLabel: address,
      after: { role: 'admin' },
    });
  });

  it('without a token creates no membership and the reply has no invitation', async () => {
    const res = await new Client(t).post('/api/register', newAccount());
    expect(res.statusCode).toBe(201);
    expect(res.json()).not.toHaveProperty('invitation');
    const blank = await new Client(t).post('/api/register', { ...newAccount(), invitationToken: '' });
    expect(blank.statusCode).toBe(201);
  });

  it('refuses another email (400 email_mismatch) and creates nothing', async () => {
    const { admin, org } = await adminWithOrg();
    const { token, invitation } = await invite(admin, freshEmail());
    const before = await userCount();
    const res = await new Client(t).post('/api/register', { ...newAccount(), invitationToken: token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: INVITATION_MESSAGES.emailMismatch, code: 'email_mismatch' });
    expect(await userCount()).toBe(before);
    const [row] = await t.db.select().from(userInvitations).where(eq(userInvitations.id, invitation.id));
    expect(row!.usedAt).toBeNull();
    expect((await auditRows(org.id)).map((a) => a.action)).toEqual(['invitation.sent']);
  });

  it('refuses an unknown, used or expired token (400 invalid_invitation) and creates nothing', async () => {
    const { admin } = await adminWithOrg();
    const before = await userCount();
    const unknown = await new Client(t).post('/api/register', { ...newAccount(), invitationToken: 'bogus' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: INVITATION_MESSAGES.invalid, code: 'invalid_invitation' });

    const address = freshEmail();
    const { token, invitation } = await invite(admin, address);
    await expireInvitation(invitation.id);
    const expired = await new Client(t).post('/api/register', {
      ...newAccount(),
      email: address,
      invitationToken: token,
    });
    expect(expired.json().code).toBe('invalid_invitation');
    expect(await userCount()).toBe(before);

    // Used once by another account with that email? Impossible (emails are unique); reuse by the same
    // person after registering answers 409 email_taken, and the token is spent anyway.
    const second = freshEmail();
    const fresh = await invite(admin, second);
    expect(
      (await new Client(t).post('/api/register', { ...newAccount(), email: second, invitationToken: fresh.token }))
        .statusCode,
    ).toBe(201);
    const reused = await new Client(t).post('/api/register', {
      ...newAccount(),
      email: second,
      invitationToken: fresh.token,
    });
    expect(reused.statusCode).toBe(409);
  });

  it('refuses when no seat is free (402 seat_limit) and creates nothing; pending invitations hold no seat', async () => {
    const { admin, org } = await adminWithOrg();
    await setMaxUsers(org.id, 2);
    const [a, b] = [freshEmail(), freshEmail()];
    const first = await invite(admin, a);
    const second = await invite(admin, b); // two pending invitations for one free seat is fine
    expect((await new Client(t).register({ email: a, invitationToken: first.token })).user).toBeTruthy();
    const before = await userCount();
    const res = await new Client(t).post('/api/register', { ...newAccount(), email: b, invitationToken: second.token });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: INVITATION_MESSAGES.seatLimit, code: 'seat_limit' });
    expect(await userCount()).toBe(before);
    const [row] = await t.db.select().from(userInvitations).where(eq(userInvitations.id, second.invitation.id));
    expect(row!.usedAt).toBeNull();
  });

  it('lets exactly one of several simultaneous registrations take the last seat', async () => {
    const { admin, org } = await adminWithOrg();
    await setMaxUsers(org.id, 2);
    const emails = [freshEmail(), freshEmail(), freshEmail(), freshEmail()];
    const tokens: string[] = [];
    for (const e of emails) tokens.push((await invite(admin, e)).token);
    const results = await Promise.all(
      emails.map((email, i) =>
        new Client(t).post('/api/register', { ...newAccount(), email, invitationToken: tokens[i] }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 402, 402, 402]);
    const members = await t.db.select().from(organizationMembers).where(eq(organizationMembers.organizationId, org.id));
    expect(members).toHaveLength(2);
  });
});

describe('POST /api/invitations/accept', () => {
  /** An existing account (not yet a member) and an invitation to its email. */
  async function existingInvitee(admin: Client, role: 'admin' | 'member' = 'member') {
    const invitee = new Client(t);
    const { email, user } = await invitee.register();
    const { token, invitation } = await invite(admin, email, role);
    return { invitee, email, userId: user.id, token, invitationId: invitation.id };
  }

  it('joins the signed-in user with the invited role; the token then stops working', async () => {
    const { admin, org } = await adminWithOrg('Quay Offices');
    const { invitee, userId, token, invitationId } = await existingInvitee(admin, 'member');
    const res = await invitee.post('/api/invitations/accept', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ organizationId: org.id, organizationName: 'Quay Offices', role: 'member' });
    expect(await memberRole(org.id, userId)).toBe('member');
    invitee.organizationId = org.id;
    expect((await invitee.get('/api/dashboard/stats')).statusCode).toBe(200);
    expect((await invitee.get('/api/user-invitations')).statusCode).toBe(403);

    const again = await invitee.post('/api/invitations/accept', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: INVITATION_MESSAGES.invalid, code: 'invalid_invitation' });
    expect((await new Client(t).get(`/api/invitations/verify/${token}`)).statusCode).toBe(404);
    const audit = (await auditRows(org.id)).filter((a) => a.action === 'invitation.accepted');
    expect(audit).toEqual([expect.objectContaining({ actorId: userId, targetId: invitationId })]);
  });

  it('refuses another signed-in email (400 email_mismatch) and marks nothing', async () => {
    const { admin } = await adminWithOrg();
    const { token, invitationId } = await existingInvitee(admin);
    const someoneElse = new Client(t);
    await someoneElse.register();
    const res = await someoneElse.post('/api/invitations/accept', { token });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('email_mismatch');
    const [row] = await t.db.select().from(userInvitations).where(eq(userInvitations.id, invitationId));
    expect(row!.usedAt).toBeNull();
  });

  it('refuses a member (409 already_member) and marks nothing', async () => {
    const { admin, org } = await adminWithOrg();
    const { invitee, userId, token, invitationId } = await existingInvitee(admin);
    await t.db.insert(organizationMembers).values({ organizationId: org.id, userId, role: 'member' });
    const res = await invitee.post('/api/invitations/accept', { token });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: INVITATION_MESSAGES.alreadyMember, code: 'already_member' });
    const [row] = await t.db.select().from(userInvitations).where(eq(userInvitations.id, invitationId));
    expect(row!.usedAt).toBeNull();
  });

  it('refuses an expired token and an unknown one (400 invalid_invitation)', async () => {
    const { admin, org } = await adminWithOrg();
    const { invitee, userId, token, invitationId } = await existingInvitee(admin);
    await expireInvitation(invitationId);
    const res = await invitee.post('/api/invitations/accept', { token });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_invitation');
    expect((await invitee.post('/api/invitations/accept', { token: 'nope' })).json().code).toBe('invalid_invitation');
    expect(await memberRole(org.id, userId)).toBeUndefined();
  });

  it('validates the body and needs a session', async () => {
    const { admin } = await adminWithOrg();
    const { invitee, token } = await existingInvitee(admin);
    const missing = await invitee.post('/api/invitations/accept', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Invitation token is required');
    expect((await invitee.post('/api/invitations/accept', { token: '' })).json().message).toBe(
      'Invitation token is required',
    );
    expect((await new Client(t).post('/api/invitations/accept', { token })).statusCode).toBe(401);
  });

  it('refuses with 402 seat_limit when no seat is free; -1 means unlimited', async () => {
    const { admin, org } = await adminWithOrg();
    await setMaxUsers(org.id, 1);
    const { invitee, userId, token } = await existingInvitee(admin);
    const res = await invitee.post('/api/invitations/accept', { token });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: INVITATION_MESSAGES.seatLimit, code: 'seat_limit' });
    expect(await memberRole(org.id, userId)).toBeUndefined();
    await setMaxUsers(org.id, -1);
    expect((await invitee.post('/api/invitations/accept', { token })).statusCode).toBe(200);
  });

  it('refuses with 402 trial_expired when the trial has ended', async () => {
    const { admin, org } = await adminWithOrg();
    const { invitee, token } = await existingInvitee(admin);
    await t.db
      .update(organizations)
      .set({ trialEndDate: new Date(Date.now() - DAY) })
      .where(eq(organizations.id, org.id));
    const res = await invitee.post('/api/invitations/accept', { token });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: INVITATION_MESSAGES.trialExpired, code: 'trial_expired' });
  });

  it('lets exactly one of several simultaneous accepts take the last seat', async () => {
    const { admin, org } = await adminWithOrg();
    await setMaxUsers(org.id, 3);
    await joinAs(t, org.id); // 2 of 3 seats taken
    const invitees = [];
    for (let i = 0; i < 5; i++) invitees.push(await existingInvitee(admin));
    const results = await Promise.all(
      invitees.map((i) => i.invitee.post('/api/invitations/accept', { token: i.token })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 402, 402, 402, 402]);
    const members = await t.db.select().from(organizationMembers).where(eq(organizationMembers.organizationId, org.id));
    expect(members).toHaveLength(3);
    const accepted = (await auditRows(org.id)).filter((a) => a.action === 'invitation.accepted');
    expect(accepted).toHaveLength(1);
  });

  it('uses a token once even when it is sent twice at the same moment', async () => {
    const { admin, org } = await adminWithOrg();
    const { invitee, userId, token } = await existingInvitee(admin);
    const results = await Promise.all([
      invitee.post('/api/invitations/accept', { token }),
      invitee.post('/api/invitations/accept', { token }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await memberRole(org.id, userId)).toBe('member');
  });
});

describe('POST /api/login with invitationToken', () => {
  async function existing() {
    const invitee = new Client(t);
    const account = await invitee.register();
    await invitee.post('/api/logout');
    return { invitee, ...account };
  }

  it('signs in and joins the organization', async () => {
    const { admin, org } = await adminWithOrg();
    const { invitee, email, password, user } = await existing();
    const { token } = await invite(admin, email, 'admin');
    const res = await invitee.post('/api/login', { username: email, password, invitationToken: token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, invitation: { status: 'joined', organizationId: org.id } });
    expect(await memberRole(org.id, user.id)).toBe('admin');
    expect((await invitee.get('/api/auth/user')).statusCode).toBe(200);
  });

  it('still signs in when the join is refused, and says why', async () => {
    const { admin, org } = await adminWithOrg();
    const { invitee, email, password, user } = await existing();

    const invalid = await invitee.post('/api/login', { username: email, password, invitationToken: 'bogus' });
    expect(invalid.statusCode).toBe(200);
    expect(invalid.json().invitation).toEqual({ status: 'invalid', message: INVITATION_MESSAGES.invalid });
    expect((await invitee.get('/api/auth/user')).statusCode).toBe(200);

    const other = await invite(admin, freshEmail());
    const mismatch = await invitee.post('/api/login', { username: email, password, invitationToken: other.token });
    expect(mismatch.json().invitation.status).toBe('email_mismatch');

    await setMaxUsers(org.id, 1);
    const { token } = await invite(admin, email);
    const full = await invitee.post('/api/login', { username: email, password, invitationToken: token });
    expect(full.statusCode).toBe(200);
    expect(full.json().invitation).toEqual({ status: 'seat_limit', message: INVITATION_MESSAGES.seatLimit });
    expect(await memberRole(org.id, user.id)).toBeUndefined();

    await t.db.insert(organizationMembers).values({ organizationId: org.id, userId: user.id, role: 'member' });
    const member = await invitee.post('/api/login', { username: email, password, invitationToken: token });
    expect(member.json().invitation).toMatchObject({ status: 'already_member', organizationId: org.id });
  });

  it('does not join with a wrong password', async () => {
    const { admin, org } = await adminWithOrg();
    const { invitee, email, user } = await existing();
    const { token } = await invite(admin, email);
    const res = await invitee.post('/api/login', {
      username: email,
      password: 'wrong-password',
      invitationToken: token,
    });
    expect(res.statusCode).toBe(401);
    expect(await memberRole(org.id, user.id)).toBeUndefined();
  });
});

describe('invitation email limits', () => {
  it('refuses the 6th resend of one invitation within the hour (429), sending nothing more', async () => {
    const { admin } = await adminWithOrg('Resend Limits');
    const email = freshEmail();
    const { invitation } = await invite(admin, email);
    for (let i = 0; i < RESENDS_PER_HOUR; i++) {
      expect((await admin.post(`/api/user-invitations/${invitation.id}/resend`)).statusCode).toBe(200);
      await mailTo(email);
    }
    const refused = await admin.post(`/api/user-invitations/${invitation.id}/resend`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: TOO_MANY_INVITATIONS });
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(0);
  });

  it('refuses invitations past the hourly allowance of an organization (429), creating none', async () => {
    const { admin, org } = await adminWithOrg('Invite Limits');
    // The window already holds the allowance, as after a script's burst.
    await t.db
      .insert(rateLimits)
      .values({ key: `invite:org:${org.id}`, windowStart: new Date(), count: INVITATIONS_PER_HOUR });
    const res = await admin.post('/api/user-invitations', { email: freshEmail(), role: 'member' });
    expect(res.statusCode).toBe(429);
    expect((await admin.get('/api/user-invitations')).json()).toEqual([]);
  });
});

describe('POST /api/user-invitations/:id/resend', () => {
  it('issues a new token and expiry, emails it, and the old link stops working', async () => {
    const { admin, adminId, org } = await adminWithOrg();
    const address = freshEmail();
    const { invitation, token: oldToken } = await invite(admin, address);
    await expireInvitation(invitation.id);
    const res = await admin.post(`/api/user-invitations/${invitation.id}/resend`);
    expect(res.statusCode).toBe(200);
    const renewed = res.json();
    expect(renewed).toMatchObject({ id: invitation.id, email: address, status: 'pending' });
    expect(Date.parse(renewed.expiresAt) - Date.now()).toBeGreaterThan(7 * DAY - 60_000);
    const { token: newToken } = await mailTo(address);
    expect(newToken).not.toBe(oldToken);
    const anonymous = new Client(t);
    expect((await anonymous.get(`/api/invitations/verify/${oldToken}`)).statusCode).toBe(404);
    expect((await anonymous.get(`/api/invitations/verify/${newToken}`)).statusCode).toBe(200);
    expect((await auditRows(org.id)).at(-1)).toMatchObject({
      action: 'invitation.resent',
      actorId: adminId,
      targetId: invitation.id,
      targetLabel: address,
    });
  });

  it("answers 404 for another organization's, a revoked or an unknown invitation; 403 to members", async () => {
    const { admin, org } = await adminWithOrg();
    const other = await adminWithOrg('Other');
    const theirs = await invite(other.admin, freshEmail());
    expect((await admin.post(`/api/user-invitations/${theirs.invitation.id}/resend`)).statusCode).toBe(404);
    expect((await admin.post(`/api/user-invitations/${crypto.randomUUID()}/resend`)).statusCode).toBe(404);
    expect((await admin.post('/api/user-invitations/not-a-uuid/resend')).statusCode).toBe(400);
    const mine = await invite(admin, freshEmail());
    await admin.delete(`/api/user-invitations/${mine.invitation.id}`);
    expect((await admin.post(`/api/user-invitations/${mine.invitation.id}/resend`)).statusCode).toBe(404);
    const { client: member } = await joinAs(t, org.id);
    const again = await invite(admin, freshEmail());
    expect((await member.post(`/api/user-invitations/${again.invitation.id}/resend`)).statusCode).toBe(403);
    expect((await new Client(t).post(`/api/user-invitations/${again.invitation.id}/resend`)).statusCode).toBe(401);
    expect((await auditRows(org.id)).filter((a) => a.action === 'invitation.resent')).toHaveLength(0);
  });
});

describe('DELETE /api/user-invitations/:id', () => {
  it('revokes: the link stops working, the list no longer shows it, and it is audited', async () => {
    const { admin, adminId, org } = await adminWithOrg();
    const address = freshEmail();
    const { invitation, token } = await invite(admin, address);
    const res = await admin.delete(`/api/user-invitations/${invitation.id}`);
    expect(res.statusCode).toBe(204);
    expect((await admin.get('/api/user-invitations')).json()).toEqual([]);
    expect((await new Client(t).get(`/api/invitations/verify/${token}`)).statusCode).toBe(404);
    const invitee = new Client(t);
    const reg = await invitee.post('/api/register', { ...newAccount(), email: address, invitationToken: token });
    expect(reg.json().code).toBe('invalid_invitation');
    expect((await admin.delete(`/api/user-invitations/${invitation.id}`)).statusCode).toBe(404);
    expect((await auditRows(org.id)).at(-1)).toMatchObject({
      action: 'invitation.revoked',
      actorId: adminId,
      targetId: invitation.id,
      targetLabel: address,
      before: { role: 'member' },
    });
  });

  it("answers 404 for another organization's invitation and 403 to members, changing nothing", async () => {
    const { admin, org } = await adminWithOrg();
    const other = await adminWithOrg('Other');
    const theirs = await invite(other.admin, freshEmail());
    expect((await admin.delete(`/api/user-invitations/${theirs.invitation.id}`)).statusCode).toBe(404);
    expect(await invitationRows(other.org.id)).toHaveLength(1);
    const mine = await invite(admin, freshEmail());
    const { client: member } = await joinAs(t, org.id);
    expect((await member.delete(`/api/user-invitations/${mine.invitation.id}`)).statusCode).toBe(403);
    expect(await invitationRows(org.id)).toHaveLength(1);
    expect((await auditRows(org.id)).filter((a) => a.action === 'invitation.revoked')).toHaveLength(0);
  });
});

describe('when the invitation email cannot be sent', () => {
  let broken: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every send fails at once.
    broken = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1', APP_URL: 'http://pigeonhole.test' });
  });

  const jobsOf = (organizationId: string) =>
    broken.db
      .select()
      .from(notificationJobs)
      .where(and(eq(notificationJobs.organizationId, organizationId), eq(notificationJobs.event, 'invitation.sent')));

  it('keeps the invitation and its audit entry, and retries the email from the outbox (decision 054)', async () => {
    const admin = new Client(broken);
    await admin.register();
    const org = await admin.createOrganization('No Mail');
    const email = freshEmail();
    const res = await admin.post('/api/user-invitations', { email });
    expect(res.statusCode).toBe(201);
    expect(
      await broken.db.select().from(userInvitations).where(eq(userInvitations.organizationId, org.id)),
    ).toHaveLength(1);
    await workers.drain(broken);
    const [job] = await jobsOf(org.id);
    // Failed once, queued again after the backoff: not lost.
    expect(job).toMatchObject({ destination: email, status: 'queued', attempts: 1 });
    expect(job!.lastError).toMatch(/SMTP/);
    // The outbox never holds a working link: the token is minted as the email is sent.
    expect(JSON.stringify(job!.payload)).toContain('__LINK_TOKEN__');
  });

  it('a resend while the server is away still ends the old link and queues a new email', async () => {
    const admin = new Client(broken);
    const { user } = await admin.register();
    const org = await admin.createOrganization('No Mail');
    const [row] = await broken.db
      .insert(userInvitations)
      .values({
        organizationId: org.id,
        email: freshEmail(),
        role: 'member',
        invitedBy: user.id,
        token: hashToken('the-old-token'),
        expiresAt: new Date(Date.now() + DAY),
      })
      .returning();
    const res = await admin.post(`/api/user-invitations/${row!.id}/resend`);
    expect(res.statusCode).toBe(200);
    expect((await new Client(broken).get('/api/invitations/verify/the-old-token')).statusCode).toBe(404);
    expect(await jobsOf(org.id)).toHaveLength(1);
  });
});
