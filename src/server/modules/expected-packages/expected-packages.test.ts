import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AddExpectedPackagesBody,
  EXPECTED_ALREADY_YOURS,
  EXPECTED_NO_MATCH,
  EXPECTED_NONE_IN_TEXT,
  EXPECTED_NOT_A_CARRIER_NUMBER,
  EXPECTED_NOT_FOUND,
  EXPECTED_PACKAGES_MAX,
  EXPECTED_TOO_MANY,
  EXPECTED_TRACKING_INVALID,
  RECIPIENT_CHOSEN,
  type MailItemHistoryEntry,
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

/** A parcel with the UPS number logged for the recipient, who the clerk says was found by `recipientSource`. */
const logUps = (c: Client, recipientId: string, recipientSource?: 'label' | 'expected' | 'portal') =>
  c.post('/api/mail-items', { type: 'Package', trackingNumber: UPS, recipientId, recipientSource });

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

  it('a number someone else expects may be registered too: the first holds nothing (issue 41, decision 047)', async () => {
    // The probe: the real addressee's registration of their own number answered 409.
    const { amara, ben } = await desk();
    await service.add(amara.caller, { trackingNumber: UPS });
    const [bens] = await service.add(ben.caller, { trackingNumber: '1z999aa10123456784' });
    expect(bens).toMatchObject({ trackingNumber: '1z999aa10123456784', carrier: 'UPS', matchedAt: null });
    const text = `Tracking: ${AMAZON}\nTracking: ${UPS}`;
    // Ben's pasted email adds the number he lacks; the one he has is skipped.
    expect((await service.add(ben.caller, { text })).map((a) => a.trackingNumber)).toEqual([AMAZON]);
    expect(await rowsOf(amara.caller.organizationId)).toHaveLength(3);
  });

  it('only a number its carrier would issue: a made-up string or a wrong check digit is a 400 that changes nothing', async () => {
    const { amara } = await desk();
    for (const bad of ['ABCDEF123', '1Z999AA10123456785', '9400111899223197428491']) {
      expect(await refusal(service.add(amara.caller, { trackingNumber: bad }))).toEqual({
        status: 400,
        message: EXPECTED_NOT_A_CARRIER_NUMBER,
      });
      // The route's body (the contract) refuses it with the same message.
      const parsed = AddExpectedPackagesBody.safeParse({ trackingNumber: bad });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => i.message)).toEqual([EXPECTED_NOT_A_CARRIER_NUMBER]);
    }
    expect(AddExpectedPackagesBody.safeParse({ trackingNumber: '1z 999 aa1 0123 4567 84' }).success).toBe(true);
    expect(await rowsOf(amara.caller.organizationId)).toEqual([]);
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
      items: [{ label: 'Boots', recipient: { id: amara.id, firstName: 'Amara', lastName: 'Okafor', unit: '12B' } }],
    });
    const none = await member.get(`/api/expected-packages/match?tracking=${AMAZON}`);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ message: EXPECTED_NO_MATCH, code: 'not_found' });
    const bad = await member.get(`/api/expected-packages/match?tracking=${encodeURIComponent('<script>')}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(EXPECTED_TRACKING_INVALID);
  });

  it('two recipients expecting one number are both answered, oldest registration first', async () => {
    const { member, amara, ben } = await desk();
    await service.add(amara.caller, { trackingNumber: UPS });
    await service.add(ben.caller, { trackingNumber: UPS, label: 'Gift' });
    const res = await member.get(`/api/expected-packages/match?tracking=${UPS}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ items: Array<{ recipient: { id: string }; label: string | null }> }>().items).toMatchObject([
      { recipient: { id: amara.id }, label: null },
      { recipient: { id: ben.id }, label: 'Gift' },
    ]);
  });

  it('another organization’s expected number is a 404, and a signed-out caller a 401', async () => {
    const one = await desk('One');
    const two = await desk('Two');
    await service.add(two.amara.caller, { trackingNumber: UPS });
    expect((await one.member.get(`/api/expected-packages/match?tracking=${UPS}`)).statusCode).toBe(404);
    expect((await new Client(t).get(`/api/expected-packages/match?tracking=${UPS}`)).statusCode).toBe(401);
  });
});

type Item = { id: string; recipientId: string | null; expectedPackageId: string | null; status: string };

const historyOf = async (member: Client, id: string) => {
  const res = await member.get(`/api/mail-items/${id}/history`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<MailItemHistoryEntry[]>();
};
const jobsOf = (id: string) =>
  t.asOwner<{ event: string; recipient_id: string | null }>(
    `select event, recipient_id from notification_jobs where mail_item_id = '${id}'`,
  );

describe('intake of an expected package: the number never outranks the label or the clerk (issue 41, decision 047)', () => {
  it('an intake that names no recipient keeps none: the expecter is not filled in, told nothing, and still expects it', async () => {
    // The probe: the parcel went to whoever registered its number first, who was emailed.
    const { member, amara } = await desk();
    await service.add(amara.caller, { trackingNumber: '1z999aa1-0123456784' });
    const res = await member.post('/api/mail-items', { type: 'Package', trackingNumber: ` ${UPS} ` });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json<Item>();
    expect(item).toMatchObject({ recipientId: null, expectedPackageId: null });
    expect(await jobsOf(item.id)).toEqual([{ event: 'mail_item.created', recipient_id: null }]);
    const [row] = await rowsOf(amara.caller.organizationId);
    expect(row).toMatchObject({ matchedAt: null, matchedItemId: null });
    expect((await historyOf(member, item.id))[0]!.notes).toBeNull();
  });

  it('the label’s recipient stays when someone else expects the number; the timeline says the label chose', async () => {
    const { member, amara, ben } = await desk();
    await service.add(amara.caller, { trackingNumber: UPS });
    const res = await logUps(member, ben.id, 'label');
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json<Item>();
    expect(item).toMatchObject({ recipientId: ben.id, expectedPackageId: null });
    expect((await historyOf(member, item.id))[0]!.notes).toBe(`Recipient ${RECIPIENT_CHOSEN.label}`);
    expect((await rowsOf(amara.caller.organizationId))[0]!.matchedAt).toBeNull();
  });

  it('the expecter the clerk chose: the item is expected, the expectation matched, the timeline says so, they are told', async () => {
    const { member, amara } = await desk();
    const [expected] = await service.add(amara.caller, { trackingNumber: UPS });
    const res = await logUps(member, amara.id, 'expected');
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json<Item & { recipient: { id: string } }>();
    expect(item).toMatchObject({ recipientId: amara.id, expectedPackageId: expected!.id, recipient: { id: amara.id } });
    const [row] = await rowsOf(amara.caller.organizationId);
    expect(row).toMatchObject({ matchedItemId: item.id });
    expect(row!.matchedAt).toBeInstanceOf(Date);
    expect((await historyOf(member, item.id))[0]!.notes).toBe(`Recipient ${RECIPIENT_CHOSEN.expected}`);
    expect(await jobsOf(item.id)).toEqual([{ event: 'mail_item.created', recipient_id: amara.id }]);

    // Matched once: the next parcel with the number is not expected, and the list shows it arrived.
    const again = await logUps(member, amara.id, 'expected');
    expect(again.json<Item>()).toMatchObject({ recipientId: amara.id, expectedPackageId: null });
    // A record never says what nobody entered: she no longer expects it, so the clerk chose.
    expect((await historyOf(member, again.json<Item>().id))[0]!.notes).toBe(`Recipient ${RECIPIENT_CHOSEN.clerk}`);
    expect((await service.list(amara.caller))[0]!.matchedAt).not.toBeNull();
    expect((await member.get(`/api/expected-packages/match?tracking=${UPS}`)).statusCode).toBe(404);
  });

  it('"expected" said for someone who does not expect the number is recorded as the clerk’s choice', async () => {
    const { member, amara, ben } = await desk();
    await service.add(amara.caller, { trackingNumber: UPS });
    const res = await logUps(member, ben.id, 'expected');
    expect(res.json<Item>()).toMatchObject({ recipientId: ben.id, expectedPackageId: null });
    expect((await historyOf(member, res.json<Item>().id))[0]!.notes).toBe(`Recipient ${RECIPIENT_CHOSEN.clerk}`);
  });

  it('the clerk picking one of two expecters matches theirs alone; the label’s pick of an expecter says both', async () => {
    const { member, amara, ben } = await desk();
    await service.add(amara.caller, { trackingNumber: UPS });
    const [bens] = await service.add(ben.caller, { trackingNumber: UPS });
    const res = await logUps(member, ben.id);
    expect(res.json<Item>()).toMatchObject({ recipientId: ben.id, expectedPackageId: bens!.id });
    expect((await historyOf(member, res.json<Item>().id))[0]!.notes).toBe(
      `Recipient ${RECIPIENT_CHOSEN.clerk}; they had registered this tracking number`,
    );
    const rows = await rowsOf(amara.caller.organizationId);
    expect(rows.find((r) => r.recipientId === amara.id)!.matchedAt).toBeNull();
    expect(rows.find((r) => r.recipientId === ben.id)!.matchedItemId).toBe(res.json<Item>().id);

    const byLabel = await logUps(member, amara.id, 'label');
    expect(byLabel.json<Item>().expectedPackageId).not.toBeNull();
    expect((await historyOf(member, byLabel.json<Item>().id))[0]!.notes).toBe(
      `Recipient ${RECIPIENT_CHOSEN.label}; they had registered this tracking number`,
    );
  });

  it('a recipient source that is not label, expected or clerk is a 400 that logs nothing', async () => {
    const { member, amara } = await desk();
    const res = await logUps(member, amara.id, 'portal');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Recipient source must be label, expected or clerk');
  });

  it('an intake refused (another organization’s recipient) matches nothing', async () => {
    const { member, amara } = await desk();
    const other = await desk('Elsewhere');
    await service.add(amara.caller, { trackingNumber: UPS });
    const res = await logUps(member, other.amara.id);
    expect(res.statusCode).toBe(404);
    const [row] = await rowsOf(amara.caller.organizationId);
    expect(row!.matchedAt).toBeNull();
  });

  it('another organization’s expected number is never matched', async () => {
    const one = await desk('One');
    const two = await desk('Two');
    await service.add(two.amara.caller, { trackingNumber: UPS });
    const res = await logUps(one.member, one.amara.id, 'expected');
    expect(res.json<Item>()).toMatchObject({ recipientId: one.amara.id, expectedPackageId: null });
  });
});

describe('Log without recipient of a parcel someone expects (issue 41, item 3)', () => {
  it('is logged under Needs a recipient (was a 500), with every expecter offered and none chosen', async () => {
    const { member, amara, ben } = await desk();
    await service.add(amara.caller, { trackingNumber: UPS });
    await service.add(ben.caller, { trackingNumber: UPS });
    const res = await member.post('/api/mail-items/needs-recipient', { type: 'Package', trackingNumber: UPS });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json<Item>();
    expect(item).toMatchObject({ status: 'needs_recipient', recipientId: null, expectedPackageId: null });
    // Nobody told: its one event is for the staff's channels (a Teams card, decision 065).
    expect(await jobsOf(item.id)).toEqual([{ event: 'mail_item.needs_recipient', recipient_id: null }]);
    const list = await member.get('/api/mail-items/needs-recipient');
    expect(list.statusCode, list.body).toBe(200);
    const [row] = list.json<Array<{ id: string; expectedBy: Array<{ id: string; firstName: string }> }>>();
    expect(row).toMatchObject({ id: item.id });
    expect(row!.expectedBy.map((r) => [r.id, r.firstName])).toEqual([
      [amara.id, 'Amara'],
      [ben.id, 'Ben'],
    ]);
  });

  it('resolved to an expecter the desk chose: expected, matched, said in the timeline; to anyone else: not', async () => {
    const { member, amara, ben } = await desk();
    const [expected] = await service.add(amara.caller, { trackingNumber: UPS });
    const first = (
      await member.post('/api/mail-items/needs-recipient', { type: 'Package', trackingNumber: UPS })
    ).json<Item>();
    const toBen = await member.post(`/api/mail-items/${first.id}/resolve`, { recipientId: ben.id });
    expect(toBen.statusCode, toBen.body).toBe(200);
    expect(toBen.json<Item>()).toMatchObject({ recipientId: ben.id, expectedPackageId: null, status: 'pending' });
    expect((await historyOf(member, first.id))[1]!.notes).toBe(`Recipient: Ben Lee (${RECIPIENT_CHOSEN.clerk})`);
    expect((await rowsOf(amara.caller.organizationId))[0]!.matchedAt).toBeNull();

    const second = (
      await member.post('/api/mail-items/needs-recipient', { type: 'Package', trackingNumber: UPS })
    ).json<Item>();
    const toAmara = await member.post(`/api/mail-items/${second.id}/resolve`, {
      recipientId: amara.id,
      recipientSource: 'expected',
    });
    expect(toAmara.statusCode, toAmara.body).toBe(200);
    expect(toAmara.json<Item>()).toMatchObject({ recipientId: amara.id, expectedPackageId: expected!.id });
    expect((await historyOf(member, second.id))[1]!.notes).toBe(
      `Recipient: Amara Okafor (${RECIPIENT_CHOSEN.expected})`,
    );
    expect((await rowsOf(amara.caller.organizationId))[0]).toMatchObject({ matchedItemId: second.id });
    expect((await jobsOf(second.id)).filter((j) => j.event !== 'mail_item.needs_recipient')).toEqual([
      { event: 'mail_item.created', recipient_id: amara.id },
    ]);
    // Resolved, the item leaves the list; a bad source is a 400.
    const bad = await member.post(`/api/mail-items/${second.id}/resolve`, {
      recipientId: amara.id,
      recipientSource: 'guess',
    });
    expect(bad.statusCode).toBe(400);
  });
});
