import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  EXPECTED_ALREADY_YOURS,
  EXPECTED_HISTORY_NOTE,
  EXPECTED_NO_MATCH,
  EXPECTED_NONE_IN_TEXT,
  EXPECTED_NOT_FOUND,
  EXPECTED_PACKAGES_MAX,
  EXPECTED_TAKEN,
  EXPECTED_TOO_MANY,
  EXPECTED_TRACKING_INVALID,
} from '../../../contract';
import type { Deps, RecipientCaller } from '../../context';
import { expectedPackages } from '../../db/schema';
import { Client, createTestApp, joinAs, type TestApp } from '../../test/harness';
import { createExpectedPackagesService, type ExpectedPackagesService } from './expected-packages.service';

let t: TestApp;
let service: ExpectedPackagesService;
beforeAll(async () => {
  t = await createTestApp();
  service = createExpectedPackagesService({ db: t.db } as Deps);
});

const UPS = '1Z999AA10123456784';
const AMAZON = 'TBA123456789000';

/** An organization with an admin, a member and two recipients, each as their own page's caller. */
async function desk(name = 'Harbor View') {
  const admin = new Client(t);
  await admin.register();
  await admin.createOrganization(name);
  const { client: member } = await joinAs(t, admin.organizationId!);
  const amara = await create(admin, '/api/recipients', { firstName: 'Amara', lastName: 'Okafor', unit: '12B' });
  const ben = await create(admin, '/api/recipients', { firstName: 'Ben', lastName: 'Lee', unit: '3A' });
  const as = (id: string): RecipientCaller => ({ organizationId: admin.organizationId!, recipientId: id });
  return { admin, member, amara: { id: amara.id, caller: as(amara.id) }, ben: { id: ben.id, caller: as(ben.id) } };
}

async function create(c: Client, url: string, body: object) {
  const res = await c.post(url, body);
  if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>();
}

/** The refusal a call ends with: its status and message. */
async function refusal(call: Promise<unknown>) {
  try {
    await call;
  } catch (err) {
    const e = err as { statusCode: number; message: string };
    return { status: e.statusCode, message: e.message };
  }
  throw new Error('expected a refusal');
}

const rowsOf = (organizationId: string) =>
  t.db.select().from(expectedPackages).where(eq(expectedPackages.organizationId, organizationId));

describe('a recipient registers the tracking numbers they expect', () => {
  it('by number (spaces, dashes and case kept as typed, matched without them), with the carrier it names', async () => {
    const { amara } = await desk();
    const [added] = await service.add(amara.caller, { trackingNumber: '1z 999 aa1-0123 4567 84', label: 'Boots' });
    expect(added).toMatchObject({ trackingNumber: '1z 999 aa1-0123 4567 84', carrier: 'UPS', label: 'Boots' });
    expect(added!.matchedAt).toBeNull();
    const [row] = await rowsOf(amara.caller.organizationId);
    expect(row!.matchKey).toBe(UPS);
    expect(await service.list(amara.caller)).toEqual([added]);
  });

  it('by pasting a shipping confirmation: every number in it, each once', async () => {
    const { amara } = await desk();
    const text = `Your order has shipped in two boxes.\nTracking number: 1Z 999 AA1 0123 4567 84\nTracking ID: ${AMAZON}`;
    const added = await service.add(amara.caller, { text });
    expect(added.map((a) => [a.trackingNumber, a.carrier])).toEqual([
      [UPS, 'UPS'],
      [AMAZON, 'Amazon'],
    ]);
    // The same email again adds nothing, and says so.
    expect(await refusal(service.add(amara.caller, { text }))).toEqual({
      status: 409,
      message: EXPECTED_ALREADY_YOURS,
    });
    expect(await rowsOf(amara.caller.organizationId)).toHaveLength(2);
  });

  it('a confirmation without a number is a 400 that says what to do', async () => {
    const { amara } = await desk();
    expect(await refusal(service.add(amara.caller, { text: 'Thanks for your order!' }))).toEqual({
      status: 400,
      message: EXPECTED_NONE_IN_TEXT,
    });
  });

  it('a number someone else in the organization expects is a 409 that changes nothing, even inside a pasted email', async () => {
    const { amara, ben } = await desk();
    await service.add(amara.caller, { trackingNumber: UPS });
    expect(await refusal(service.add(ben.caller, { trackingNumber: '1z999aa10123456784' }))).toEqual({
      status: 409,
      message: EXPECTED_TAKEN,
    });
    const text = `Tracking: ${AMAZON}\nTracking: ${UPS}`;
    expect((await refusal(service.add(ben.caller, { text }))).status).toBe(409);
    expect(await service.list(ben.caller)).toEqual([]);
    expect(await rowsOf(amara.caller.organizationId)).toHaveLength(1);
  });

  it('another organization may expect the same number', async () => {
    const one = await desk('One');
    const two = await desk('Two');
    await service.add(one.amara.caller, { trackingNumber: UPS });
    await expect(service.add(two.amara.caller, { trackingNumber: UPS })).resolves.toHaveLength(1);
  });

  it(`at most ${EXPECTED_PACKAGES_MAX} open at once`, async () => {
    const { amara } = await desk();
    await t.db.insert(expectedPackages).values(
      Array.from({ length: EXPECTED_PACKAGES_MAX }, (_, i) => ({
        organizationId: amara.caller.organizationId,
        recipientId: amara.id,
        trackingNumber: `CAP${i}XYZ`,
        matchKey: `CAP${i}XYZ`,
      })),
    );
    expect(await refusal(service.add(amara.caller, { trackingNumber: UPS }))).toEqual({
      status: 409,
      message: EXPECTED_TOO_MANY,
    });
  });

  it('removes only their own: another recipient’s or another organization’s is a 404', async () => {
    const { amara, ben } = await desk();
    const other = await desk('Elsewhere');
    const [mine] = await service.add(amara.caller, { trackingNumber: UPS });
    expect(await refusal(service.remove(ben.caller, mine!.id))).toEqual({ status: 404, message: EXPECTED_NOT_FOUND });
    expect(await refusal(service.remove({ ...other.amara.caller, recipientId: amara.id }, mine!.id))).toMatchObject({
      status: 404,
    });
    expect(await service.list(ben.caller)).toEqual([]);
    await service.remove(amara.caller, mine!.id);
    expect(await service.list(amara.caller)).toEqual([]);
  });

  it('one expected 61 days ago no longer matches, and someone else may register the number', async () => {
    const { amara, ben } = await desk();
    await service.add(amara.caller, { trackingNumber: UPS });
    await t.db
      .update(expectedPackages)
      .set({ createdAt: new Date(Date.now() - 61 * 86_400_000) })
      .where(eq(expectedPackages.recipientId, amara.id));
    expect(await service.list(amara.caller)).toEqual([]);
    await expect(service.add(ben.caller, { trackingNumber: UPS })).resolves.toHaveLength(1);
  });

  it('a recipient’s erasure removes what they expected (decision 015)', async () => {
    const { admin, amara } = await desk();
    await service.add(amara.caller, { trackingNumber: UPS });
    const res = await admin.post(`/api/recipients/${amara.id}/erase`, { confirm: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(await rowsOf(amara.caller.organizationId)).toEqual([]);
  });
});

describe('the desk: who expects a scanned number', () => {
  it('a member asks by any spelling and gets the recipient; no match is a 404; bad input a 400', async () => {
    const { member, amara } = await desk();
    await service.add(amara.caller, { trackingNumber: UPS, label: 'Boots' });
    const res = await member.get(
      `/api/expected-packages/match?tracking=${encodeURIComponent('1z 999-aa1 0123 4567 84')}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      label: 'Boots',
      recipient: { id: amara.id, firstName: 'Amara', lastName: 'Okafor', unit: '12B' },
    });
    const none = await member.get(`/api/expected-packages/match?tracking=${AMAZON}`);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ message: EXPECTED_NO_MATCH, code: 'not_found' });
    const bad = await member.get(`/api/expected-packages/match?tracking=${encodeURIComponent('<script>')}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(EXPECTED_TRACKING_INVALID);
  });

  it('another organization’s expected number is a 404, and a signed-out caller a 401', async () => {
    const one = await desk('One');
    const two = await desk('Two');
    await service.add(two.amara.caller, { trackingNumber: UPS });
    expect((await one.member.get(`/api/expected-packages/match?tracking=${UPS}`)).statusCode).toBe(404);
    expect((await new Client(t).get(`/api/expected-packages/match?tracking=${UPS}`)).statusCode).toBe(401);
  });
});

type Item = { id: string; recipientId: string | null; expectedPackageId: string | null };

describe('intake of an expected package', () => {
  it('fills in the recipient, marks the item expected and the expected package matched, with a history line and the arrival event', async () => {
    const { member, amara } = await desk();
    const [expected] = await service.add(amara.caller, { trackingNumber: '1z999aa1-0123456784' });
    const res = await member.post('/api/mail-items', { type: 'Package', trackingNumber: ` ${UPS} ` });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json<Item & { recipient: { id: string } }>();
    expect(item).toMatchObject({ recipientId: amara.id, expectedPackageId: expected!.id, recipient: { id: amara.id } });

    const [row] = await rowsOf(amara.caller.organizationId);
    expect(row).toMatchObject({ matchedItemId: item.id });
    expect(row!.matchedAt).toBeInstanceOf(Date);
    const history = await member.get(`/api/mail-items/${item.id}/history`);
    expect(history.statusCode, history.body).toBe(200);
    expect(JSON.stringify(history.json())).toContain(EXPECTED_HISTORY_NOTE);
    const jobs = await t.asOwner<{ event: string; recipient_id: string }>(
      `select event, recipient_id from notification_jobs where mail_item_id = '${item.id}'`,
    );
    expect(jobs).toEqual([{ event: 'mail_item.created', recipient_id: amara.id }]);

    // Matched once: the next parcel with the number is not expected, and the list shows it arrived.
    const again = await member.post('/api/mail-items', { type: 'Package', trackingNumber: UPS });
    expect(again.json<Item>()).toMatchObject({ recipientId: null, expectedPackageId: null });
    expect((await service.list(amara.caller))[0]!.matchedAt).not.toBeNull();
    expect((await member.get(`/api/expected-packages/match?tracking=${UPS}`)).statusCode).toBe(404);
  });

  it('the desk naming the expecter matches too; naming someone else wins and leaves it expected', async () => {
    const { member, amara, ben } = await desk();
    await service.add(amara.caller, { trackingNumber: UPS });
    const toBen = await member.post('/api/mail-items', { type: 'Package', trackingNumber: UPS, recipientId: ben.id });
    expect(toBen.json<Item>()).toMatchObject({ recipientId: ben.id, expectedPackageId: null });
    const toAmara = await member.post('/api/mail-items', {
      type: 'Package',
      trackingNumber: UPS,
      recipientId: amara.id,
    });
    expect(toAmara.json<Item>().expectedPackageId).not.toBeNull();
  });

  it('an intake refused (another organization’s recipient) matches nothing', async () => {
    const { member, amara } = await desk();
    const other = await desk('Elsewhere');
    await service.add(amara.caller, { trackingNumber: UPS });
    const res = await member.post('/api/mail-items', {
      type: 'Package',
      trackingNumber: UPS,
      recipientId: other.amara.id,
    });
    expect(res.statusCode).toBe(404);
    const [row] = await rowsOf(amara.caller.organizationId);
    expect(row!.matchedAt).toBeNull();
  });

  it('another organization’s expected number is never matched', async () => {
    const one = await desk('One');
    const two = await desk('Two');
    await service.add(two.amara.caller, { trackingNumber: UPS });
    const res = await one.member.post('/api/mail-items', { type: 'Package', trackingNumber: UPS });
    expect(res.json<Item>()).toMatchObject({ recipientId: null, expectedPackageId: null });
  });
});
