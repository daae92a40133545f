import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, organizationSettings } from '../../db/schema';
import { EXPECTED_DEFAULT_SETTINGS as DEFAULTS } from '../../test/default-settings';
import { adminAndMember, Client, createTestApp, type TestApp } from '../../test/harness';
import { getSettings } from './settings.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

async function orgWithMember() {
  const { admin, member, org } = await adminAndMember(t);
  return { admin, member, org, url: `/api/organization-settings/${org.id}` };
}

async function rowOf(organizationId: string) {
  const [row] = await t.db
    .select()
    .from(organizationSettings)
    .where(eq(organizationSettings.organizationId, organizationId));
  return row;
}

describe('GET /api/organization-settings/:orgId', () => {
  it('answers the defaults to members and admins', async () => {
    const { admin, member, url } = await orgWithMember();
    for (const c of [admin, member]) {
      const res = await c.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(DEFAULTS);
    }
  });

  it('writes the defaults when the row is missing', async () => {
    const { member, org, url } = await orgWithMember();
    await t.db.delete(organizationSettings).where(eq(organizationSettings.organizationId, org.id));
    const res = await member.get(url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEFAULTS);
    expect(await rowOf(org.id)).toMatchObject(DEFAULTS);
    // And for other modules, through getSettings.
    await t.db.delete(organizationSettings).where(eq(organizationSettings.organizationId, org.id));
    expect(await getSettings(t.db, org.id)).toEqual(DEFAULTS);
    expect(await rowOf(org.id)).toBeDefined();
  });

  it('answers 404 to non-members, 400 for a malformed id and 401 signed out', async () => {
    const { url } = await orgWithMember();
    const outsider = new Client(t);
    await outsider.register();
    await outsider.createOrganization('Elsewhere');
    const res = await outsider.get(url);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Organization not found');
    expect((await outsider.get('/api/organization-settings/nope')).statusCode).toBe(400);
    expect((await new Client(t).get(url)).statusCode).toBe(401);
  });
});

describe('PUT /api/organization-settings/:orgId', () => {
  it('lets admins change one key at a time and answers the full settings', async () => {
    const { admin, member, org, url } = await orgWithMember();
    const res = await admin.put(url, { courierCompanies: [' FedEx ', '', 'Royal Mail', '   '] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...DEFAULTS, courierCompanies: ['FedEx', 'Royal Mail'] });

    const flag = await admin.put(url, { requirePhotoUpload: true });
    expect(flag.json()).toEqual({ ...DEFAULTS, courierCompanies: ['FedEx', 'Royal Mail'], requirePhotoUpload: true });

    const statuses = await admin.put(url, { customStatuses: ['pending', 'notified', 'delivered', 'held'] });
    expect(statuses.json().customStatuses).toEqual(['pending', 'notified', 'delivered', 'held']);
    const sizes = await admin.put(url, { packageSizes: [] });
    expect(sizes.json().packageSizes).toEqual([]);

    expect((await member.get(url)).json()).toEqual({
      ...DEFAULTS,
      courierCompanies: ['FedEx', 'Royal Mail'],
      requirePhotoUpload: true,
      customStatuses: ['pending', 'notified', 'delivered', 'held'],
      packageSizes: [],
    });
    expect(await rowOf(org.id)).toMatchObject({ requirePhotoUpload: true, packageSizes: [] });
  });

  it('creates the row when missing', async () => {
    const { admin, org, url } = await orgWithMember();
    await t.db.delete(organizationSettings).where(eq(organizationSettings.organizationId, org.id));
    const res = await admin.put(url, { autoNotifyRecipients: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...DEFAULTS, autoNotifyRecipients: false });
  });

  it('refuses a duplicate value (case-insensitive) naming it, and changes nothing', async () => {
    const { admin, org, url } = await orgWithMember();
    const before = await rowOf(org.id);
    const res = await admin.put(url, { packageTypes: ['package', 'Letter', ' letter '] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Value already exists',
      code: 'validation_error',
      errors: [{ path: 'packageTypes', message: '"letter" is already in the list' }],
    });
    const courier = await admin.put(url, { courierCompanies: ['UPS', 'ups'] });
    expect(courier.json().errors).toEqual([{ path: 'courierCompanies', message: '"ups" is already in the list' }]);
    expect(await rowOf(org.id)).toEqual(before);
  });

  it.each([
    [{ packageTypes: [] }, 'Keep at least one package type'],
    [{ packageTypes: [' ', ''] }, 'Keep at least one package type'],
    [
      { customStatuses: ['pending', 'notified', 'returned'] },
      'The statuses pending, notified and delivered cannot be removed',
    ],
    [
      { customStatuses: ['Pending', 'notified', 'delivered'] },
      'The statuses pending, notified and delivered cannot be removed',
    ],
    [{}, 'Nothing to update'],
    [{ packageTypes: ['x'.repeat(51)] }, 'Values must be at most 50 characters'],
    [{ packageTypes: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'A list can hold at most 100 values'],
    [{ packageTypes: 'package' }, 'Must be a list of values'],
    [{ requirePhotoUpload: 'yes' }, 'Invalid input: expected boolean, received string'],
  ])('refuses %o with 400 and changes nothing', async (body, message) => {
    const { admin, org, url } = await orgWithMember();
    const before = await rowOf(org.id);
    const res = await admin.put(url, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await rowOf(org.id)).toEqual(before);
  });

  it('is admin-only: 403 to members, 404 to non-members, 401 signed out; nothing changes', async () => {
    const { member, org, url } = await orgWithMember();
    const before = await rowOf(org.id);
    const refused = await member.put(url, { requirePhotoUpload: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only organization admins can do this');
    // Members are refused before the list rules are looked at.
    expect((await member.put(url, { packageTypes: [] })).statusCode).toBe(403);

    const outsider = new Client(t);
    await outsider.register();
    await outsider.createOrganization('Elsewhere');
    const notFound = await outsider.put(url, { requirePhotoUpload: true });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json().message).toBe('Organization not found');

    expect((await new Client(t).put(url, { requirePhotoUpload: true })).statusCode).toBe(401);
    expect((await outsider.put('/api/organization-settings/nope', { requirePhotoUpload: true })).statusCode).toBe(400);
    expect(await rowOf(org.id)).toEqual(before);
  });
});

describe('settings audit', () => {
  const auditRows = (organizationId: string) =>
    t.db.select().from(auditLog).where(eq(auditLog.organizationId, organizationId)).orderBy(auditLog.seq);

  it('records only the changed keys, lists as whole lists, and nothing for refused or unchanged updates', async () => {
    const { admin, member, org, url } = await orgWithMember();
    const adminId = (await admin.get('/api/auth/user')).json().id;
    const couriers = [...DEFAULTS.courierCompanies, 'Royal Mail'];
    const res = await admin.put(url, { courierCompanies: couriers, autoNotifyRecipients: true, sendReminders: false });
    expect(res.statusCode).toBe(200);
    const rows = await auditRows(org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'settings.updated',
      actorId: adminId,
      targetType: 'settings',
      targetId: org.id,
      before: { courierCompanies: DEFAULTS.courierCompanies, sendReminders: true },
      after: { courierCompanies: couriers, sendReminders: false },
    });
    expect(rows[0]!.after).not.toHaveProperty('autoNotifyRecipients');

    await admin.put(url, { sendReminders: false }); // unchanged
    await admin.put(url, { packageTypes: [] }); // refused: 400
    await admin.put(url, { courierCompanies: ['UPS', 'ups'] }); // refused: duplicate
    await member.put(url, { sendReminders: true }); // refused: 403
    expect(await auditRows(org.id)).toHaveLength(1);
  });
});

describe('labelMatchThreshold (issue 28, decision 041)', () => {
  it('starts at 80, admins set it within 50-100 (audited), anything else is refused with its message', async () => {
    const { admin, member, org, url } = await orgWithMember();
    expect((await member.get(url)).json()).toMatchObject({ labelMatchThreshold: 80 });
    const res = await admin.put(url, { labelMatchThreshold: 65 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ labelMatchThreshold: 65 });
    expect((await rowOf(org.id))!.labelMatchThreshold).toBe(65);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.organizationId, org.id));
    expect(audit).toMatchObject({
      action: 'settings.updated',
      before: { labelMatchThreshold: 80 },
      after: { labelMatchThreshold: 65 },
    });

    for (const [value, message] of [
      [49, 'Match threshold must be between 50 and 100'],
      [101, 'Match threshold must be between 50 and 100'],
      [72.5, 'Match threshold must be a whole number'],
      ['80', 'Match threshold must be a number'],
    ] as const) {
      const refused = await admin.put(url, { labelMatchThreshold: value });
      expect(refused.statusCode, String(value)).toBe(400);
      expect(refused.json().errors ?? refused.json().message, String(value)).toEqual(
        expect.arrayContaining([expect.objectContaining({ message })]),
      );
    }
    expect((await member.put(url, { labelMatchThreshold: 90 })).statusCode).toBe(403);
    expect((await rowOf(org.id))!.labelMatchThreshold).toBe(65);
  });
});
