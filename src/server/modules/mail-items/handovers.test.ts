import { and, count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DELIVERED_BY_HANDOVER_ONLY,
  HANDOVER_PHOTO_REQUIRED,
  MIXED_RECIPIENTS,
  SIGNATURE_EMPTY,
  SIGNATURE_INVALID,
  SIGNATURE_REQUIRED,
  SIGNATURE_TOO_LARGE,
  SIGNATURE_MAX_HEIGHT,
  SIGNATURE_MAX_WIDTH,
  SIGNATURE_TOO_MANY_PIXELS,
  TOO_MANY_SIGNATURES,
  PICKUP_CODE_INACTIVE,
  PICKUP_CODE_REQUIRED,
  PROXY_REASON_TOO_SHORT,
  pickupCodeNotTheirs,
} from '../../../contract';
import { handovers, mailItemHistory, photos, rateLimits, recipientProxies } from '../../db/schema';
import { Client, createTestApp, joinAs, type TestApp } from '../../test/harness';
import { SIGNATURES_PER_ORGANIZATION, proxyReasonRequired } from './handovers.service';

let t: TestApp;
let signature: string;
beforeAll(async () => {
  t = await createTestApp();
  signature = await signaturePng();
});

type Handover = {
  id: string;
  recipientId: string | null;
  collectorName: string;
  identifiedBy: string;
  proxyReason: string | null;
  signatureUrl: string | null;
  photoUrl: string | null;
  handedOverBy: { id: string; firstName: string; lastName: string } | null;
  createdAt: string;
  itemIds: string[];
};
type Item = {
  id: string;
  status: string;
  collectorName: string | null;
  handoverId: string | null;
  handedOverBy: string | null;
};

/** A pad's PNG: a stroke across a transparent strip, as a canvas draws it. */
async function signaturePng(
  stroke = '<path d="M20 80 C 80 10, 140 150, 280 60" stroke="#111" stroke-width="3" fill="none"/>',
) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120">${stroke}</svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

const PHOTO = async () =>
  `data:image/jpeg;base64,${(
    await sharp({ create: { width: 40, height: 30, channels: 3, background: '#7a5' } })
      .jpeg()
      .toBuffer()
  ).toString('base64')}`;

async function desk(name = 'Harbor View') {
  const admin = new Client(t);
  const account = await admin.register();
  await admin.createOrganization(name);
  // A new organization signs at every hand-over (decision 053): these tests try each proof on its
  // own, so their desk has turned it off, as an admin may.
  const off = await admin.put(`/api/organization-settings/${admin.organizationId}`, {
    handoverRequiresSignature: false,
  });
  if (off.statusCode !== 200) throw new Error(off.body);
  const { client: member, userId: memberId } = await joinAs(t, admin.organizationId!);
  const amara = await created(admin, '/api/recipients', { firstName: 'Amara', lastName: 'Okafor' });
  const ben = await created(admin, '/api/recipients', { firstName: 'Ben', lastName: 'Ito' });
  return { admin, member, memberId, adminId: account.user.id, amara, ben };
}

async function created(c: Client, url: string, body: object) {
  const res = await c.post(url, body);
  if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>();
}

/** The recipient's pickup code, as the collector shows it on their phone. */
const codeOf = async (c: Client, recipientId: string) =>
  (await c.get(`/api/recipients/${recipientId}/pickup-code`)).json<{ code: string }>().code;

const logItem = (c: Client, recipientId: string) => created(c, '/api/mail-items', { type: 'package', recipientId });
const itemOf = async (c: Client, id: string) => (await c.get(`/api/mail-items/${id}`)).json<Item>();

async function rowsOf(organizationId: string) {
  const [h] = await t.db.select({ n: count() }).from(handovers).where(eq(handovers.organizationId, organizationId));
  const [p] = await t.db.select({ n: count() }).from(photos).where(eq(photos.organizationId, organizationId));
  return { handovers: h!.n, photos: p!.n };
}

describe('POST /api/handovers', () => {
  it('hands two items over at once with the signature, the collector, how identified and who, all recorded', async () => {
    const { member, memberId, amara } = await desk();
    const first = await logItem(member, amara.id);
    const second = await logItem(member, amara.id);
    const res = await member.post('/api/handovers', {
      itemIds: [first.id, second.id],
      collectorName: 'Amara Okafor',
      identifiedBy: 'pickup_code',
      pickupCode: await codeOf(member, amara.id),
      signatureData: signature,
    });
    expect(res.statusCode, res.body).toBe(201);
    const h = res.json<Handover>();
    expect(h).toMatchObject({
      recipientId: amara.id,
      collectorName: 'Amara Okafor',
      identifiedBy: 'pickup_code',
      proxyReason: null,
      photoUrl: null,
      handedOverBy: { id: memberId },
    });
    expect(h.signatureUrl).toMatch(/^\/api\/photos\/[0-9a-f-]{36}$/);
    expect([...h.itemIds].sort()).toEqual([first.id, second.id].sort());

    for (const id of [first.id, second.id]) {
      expect(await itemOf(member, id)).toMatchObject({
        status: 'delivered',
        collectorName: 'Amara Okafor',
        handoverId: h.id,
        handedOverBy: memberId,
      });
      const history = (await member.get(`/api/mail-items/${id}/history`)).json<
        Array<{ action: string; notes: string }>
      >();
      expect(history.find((e) => e.action === 'delivered')?.notes).toBe(
        'Collected by Amara Okafor · pickup code, signed',
      );
    }

    // The signature is an image members of the organization may see, and nobody else.
    const image = await member.get(h.signatureUrl!);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const meta = await sharp(image.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 300, height: 120 });
    const stranger = new Client(t);
    await stranger.register();
    await stranger.createOrganization('Elsewhere');
    expect((await stranger.get(h.signatureUrl!)).statusCode).toBe(404);

    expect((await member.get(`/api/handovers/${h.id}`)).json()).toEqual(h);

    // History's export says who collected and how.
    const csv = (await member.get('/api/history/export?range=0')).body.split('\r\n');
    expect(csv[0]).toMatch(/,Collected by,Identified by,Proof$/);
    expect(csv.filter((line) => line.endsWith(',Amara Okafor,pickup code,signature'))).toHaveLength(2);
  });

  it('takes a photo of the collector and says so in the history', async () => {
    const { member, amara } = await desk();
    const item = await logItem(member, amara.id);
    const res = await member.post('/api/handovers', {
      itemIds: [item.id],
      collectorName: 'amara  OKAFOR',
      identifiedBy: 'id_checked',
      photoData: await PHOTO(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const h = res.json<Handover>();
    expect(h.photoUrl).toMatch(/^\/api\/photos\//);
    expect(h.signatureUrl).toBeNull();
    const history = (await member.get(`/api/mail-items/${item.id}/history`)).json<Array<{ notes: string | null }>>();
    expect(history.map((e) => e.notes)).toContain('Collected by amara  OKAFOR · ID checked, photo taken');
  });

  it('is all or none: an item already handed over refuses the whole hand-over with 409', async () => {
    const { admin, member, amara } = await desk();
    const waiting = await logItem(member, amara.id);
    const gone = await logItem(member, amara.id);
    expect(
      (
        await member.post('/api/handovers', {
          itemIds: [gone.id],
          collectorName: 'Amara Okafor',
          identifiedBy: 'id_checked',
        })
      ).statusCode,
    ).toBe(201);
    const before = await rowsOf(admin.organizationId!);
    const res = await member.post('/api/handovers', {
      itemIds: [waiting.id, gone.id],
      collectorName: 'Amara Okafor',
      identifiedBy: 'known_to_staff',
      signatureData: signature,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'already_handed_over' });
    expect((await itemOf(member, waiting.id)).status).toBe('pending');
    expect(await rowsOf(admin.organizationId!)).toEqual(before);
  });

  it('hands over one recipient at a time (409), and 404 for an item of another organization, changing nothing', async () => {
    const a = await desk('A');
    const b = await desk('B');
    const amaras = await logItem(a.member, a.amara.id);
    const bens = await logItem(a.member, a.ben.id);
    const theirs = await logItem(b.member, b.amara.id);
    const body = { collectorName: 'Amara Okafor', identifiedBy: 'id_checked' };

    const mixed = await a.member.post('/api/handovers', { ...body, itemIds: [amaras.id, bens.id] });
    expect(mixed.statusCode).toBe(409);
    expect(mixed.json()).toEqual({ message: MIXED_RECIPIENTS, code: 'mixed_recipients' });

    const beforeB = await rowsOf(b.admin.organizationId!);
    const cross = await a.member.post('/api/handovers', { ...body, itemIds: [amaras.id, theirs.id] });
    expect(cross.statusCode).toBe(404);
    expect(cross.json()).toEqual({ message: 'Mail item not found', code: 'not_found' });
    expect((await itemOf(b.member, theirs.id)).status).toBe('pending');
    expect((await itemOf(a.member, amaras.id)).status).toBe('pending');
    expect(await rowsOf(b.admin.organizationId!)).toEqual(beforeB);
    expect((await rowsOf(a.admin.organizationId!)).handovers).toBe(0);
  });

  it('refuses a signature that is not a PNG, is empty or is oversized, with nothing handed over', async () => {
    const { admin, member, amara } = await desk();
    const item = await logItem(member, amara.id);
    const noise = await sharp(
      Buffer.from(Array.from({ length: 700 * 700 * 3 }, () => Math.floor(Math.random() * 256))),
      {
        raw: { width: 700, height: 700, channels: 3 },
      },
    )
      .png({ compressionLevel: 0 })
      .toBuffer();
    const cases: Array<[string, string, string]> = [
      ['not an image', 'data:image/png;base64,aGVsbG8gd29ybGQ=', SIGNATURE_INVALID],
      ['not base64', 'data:image/png;base64,<<<>>>', SIGNATURE_INVALID],
      ['a JPEG', await PHOTO(), SIGNATURE_INVALID],
      ['empty (transparent)', await signaturePng(''), SIGNATURE_EMPTY],
      ['a tap, not a signature', await signaturePng('<circle cx="50" cy="50" r="2" fill="#000"/>'), SIGNATURE_EMPTY],
      ['oversized', `data:image/png;base64,${noise.toString('base64')}`, SIGNATURE_TOO_LARGE],
    ];
    const before = await rowsOf(admin.organizationId!);
    for (const [label, signatureData, message] of cases) {
      const res = await member.post('/api/handovers', {
        itemIds: [item.id],
        collectorName: 'Amara Okafor',
        identifiedBy: 'id_checked',
        signatureData,
      });
      expect(res.statusCode, label).toBe(400);
      expect(res.json().message, label).toContain(message);
    }
    expect((await itemOf(member, item.id)).status).toBe('pending');
    expect(await rowsOf(admin.organizationId!)).toEqual(before);
  });

  it('validates the body with the messages a person understands', async () => {
    const { member, amara } = await desk();
    const item = await logItem(member, amara.id);
    const base = { itemIds: [item.id], collectorName: 'Amara Okafor', identifiedBy: 'pickup_code' };
    const cases: Array<[object, string]> = [
      [{ ...base, itemIds: [] }, 'Choose at least one item to hand over'],
      [{ ...base, itemIds: [item.id, item.id] }, 'An item is listed twice'],
      [{ ...base, itemIds: ['nope'] }, 'Invalid id'],
      [{ ...base, collectorName: '  ' }, 'Collector name is required'],
      [{ ...base, collectorName: undefined }, 'Collector name is required'],
      [{ ...base, identifiedBy: 'vibes' }, 'Say how the collector was identified'],
      [{ ...base, proxyReason: 'x'.repeat(501) }, 'The reason must be less than 500 characters'],
    ];
    for (const [body, message] of cases) {
      const res = await member.post('/api/handovers', body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message, message).toContain(message);
    }
    expect((await itemOf(member, item.id)).status).toBe('pending');
  });
});

describe('the desk’s list rows', () => {
  it('say who collected a handed-over item (History’s rows), and nobody for one still waiting', async () => {
    const { admin, amara } = await desk();
    const [given, waiting] = [await logItem(admin, amara.id), await logItem(admin, amara.id)];
    const res = await admin.post('/api/handovers', {
      itemIds: [given.id],
      collectorName: 'Kofi Mensah',
      identifiedBy: 'id_checked',
      proxyReason: 'Her neighbour',
    });
    expect(res.statusCode, res.body).toBe(201);
    const rows = (await admin.get('/api/mail-items?view=summary&limit=500')).json<
      Array<{ id: string; collectorName: string | null; status: string }>
    >();
    expect(rows.find((r) => r.id === given.id)).toMatchObject({ status: 'delivered', collectorName: 'Kofi Mensah' });
    expect(rows.find((r) => r.id === waiting.id)).toMatchObject({ collectorName: null });
  });
});

describe('proxies', () => {
  it('someone not on the recipient’s list needs a reason, which the history keeps; a proxy on it does not', async () => {
    const { admin, member, amara } = await desk();
    const item = await logItem(member, amara.id);
    const body = { itemIds: [item.id], collectorName: 'Chidi Eze', identifiedBy: 'id_checked' };
    const refused = await member.post('/api/handovers', body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      message: proxyReasonRequired('Chidi Eze', 'Amara Okafor'),
      code: 'proxy_reason_required',
    });
    expect((await itemOf(member, item.id)).status).toBe('pending');

    const res = await member.post('/api/handovers', { ...body, proxyReason: 'Her brother, she phoned ahead' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Handover>().proxyReason).toBe('Her brother, she phoned ahead');
    const history = (await member.get(`/api/mail-items/${item.id}/history`)).json<Array<{ notes: string | null }>>();
    expect(history.map((e) => e.notes)).toContain(
      'Collected by Chidi Eze · ID checked · not on their list: Her brother, she phoned ahead',
    );

    await t.db
      .insert(recipientProxies)
      .values({ organizationId: admin.organizationId!, recipientId: amara.id, name: 'Chidi Eze' });
    const next = await logItem(member, amara.id);
    const proxied = await member.post('/api/handovers', { ...body, itemIds: [next.id], collectorName: 'eze chidi' });
    expect(proxied.statusCode, proxied.body).toBe(201);
  });
});

describe('what a hand-over requires (Settings)', () => {
  it('a signature or a photo when the organization asks for it, and Mark delivered then points to Hand over', async () => {
    const { admin, member, amara } = await desk();
    const item = await logItem(member, amara.id);
    const settings = (body: object) => admin.put(`/api/organization-settings/${admin.organizationId}`, body);
    expect((await settings({ handoverRequiresSignature: true })).statusCode).toBe(200);
    const base = {
      itemIds: [item.id],
      collectorName: 'Amara Okafor',
      identifiedBy: 'pickup_code',
      pickupCode: await codeOf(member, amara.id),
    };

    const unsigned = await member.post('/api/handovers', base);
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toEqual({ message: SIGNATURE_REQUIRED, code: 'signature_required' });
    const plain = await member.put(`/api/mail-items/${item.id}`, { status: 'delivered' });
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toEqual({ message: DELIVERED_BY_HANDOVER_ONLY, code: 'delivered_by_handover_only' });
    expect((await itemOf(member, item.id)).status).toBe('pending');

    expect((await settings({ handoverRequiresSignature: false, handoverRequiresPhoto: true })).statusCode).toBe(200);
    const noPhoto = await member.post('/api/handovers', { ...base, signatureData: signature });
    expect(noPhoto.statusCode).toBe(400);
    expect(noPhoto.json()).toEqual({ message: HANDOVER_PHOTO_REQUIRED, code: 'handover_photo_required' });
    expect((await member.post('/api/handovers', { ...base, photoData: await PHOTO() })).statusCode).toBe(201);
  });
});

describe('GET /api/handovers/:id', () => {
  it('answers 404 for another organization’s hand-over and for none', async () => {
    const a = await desk('A');
    const b = await desk('B');
    const item = await logItem(b.member, b.amara.id);
    const h = await created(b.member, '/api/handovers', {
      itemIds: [item.id],
      collectorName: 'Amara Okafor',
      identifiedBy: 'known_to_staff',
    });
    for (const url of [`/api/handovers/${h.id}`, `/api/handovers/${crypto.randomUUID()}`]) {
      const res = await a.admin.get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Hand-over not found', code: 'not_found' });
    }
    const [row] = await t.db
      .select({ n: count() })
      .from(mailItemHistory)
      .where(and(eq(mailItemHistory.mailItemId, item.id), eq(mailItemHistory.action, 'delivered')));
    expect(row!.n).toBe(1);
  });
});

/** Strokes across a whole image of this size, as a canvas of it draws them. */
async function strokesPng(width: number, height: number) {
  const strokes = [1, 2, 3]
    .map(
      (n) => `<path d="M10 ${(n * height) / 4} L ${width - 10} ${(n * height) / 4}" stroke="#111" stroke-width="4"/>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${strokes}</svg>`;
  return `data:image/png;base64,${(await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer()).toString('base64')}`;
}

describe('a signature bounded to a pad (issue 41, item 4; decision 050)', () => {
  it('refuses the probe’s 4000 x 4000 PNG by its header, and takes the largest pad’s', async () => {
    const { admin, member, amara } = await desk();
    const item = await logItem(member, amara.id);
    const body = { itemIds: [item.id], collectorName: 'Amara Okafor', identifiedBy: 'id_checked' };
    const before = await rowsOf(admin.organizationId!);
    for (const [width, height] of [
      [4000, 4000],
      [SIGNATURE_MAX_WIDTH + 1, 200],
      [600, SIGNATURE_MAX_HEIGHT + 1],
    ] as const) {
      const res = await member.post('/api/handovers', { ...body, signatureData: await strokesPng(width, height) });
      expect(res.statusCode, `${width}x${height}`).toBe(400);
      expect(res.json()).toEqual({ message: SIGNATURE_TOO_MANY_PIXELS, code: 'signature_too_many_pixels' });
    }
    expect(await rowsOf(admin.organizationId!)).toEqual(before);
    const largest = await member.post('/api/handovers', {
      ...body,
      signatureData: await strokesPng(SIGNATURE_MAX_WIDTH, SIGNATURE_MAX_HEIGHT),
    });
    expect(largest.statusCode, largest.body).toBe(201);
    const image = await member.get(largest.json<Handover>().signatureUrl!);
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({
      width: SIGNATURE_MAX_WIDTH,
      height: SIGNATURE_MAX_HEIGHT,
    });
  });

  it('counts signatures per organization: past the minute’s allowance 429 with Retry-After, nothing decoded or written', async () => {
    const { admin, member, amara } = await desk();
    const other = await desk('Elsewhere');
    const [signed, unsigned] = [await logItem(member, amara.id), await logItem(member, amara.id)];
    // The organization has had its allowance this minute (the probe sent them as fast as they go).
    await t.db.insert(rateLimits).values({
      key: `signatures:org:${admin.organizationId}`,
      windowStart: new Date(),
      count: SIGNATURES_PER_ORGANIZATION,
    });
    const before = await rowsOf(admin.organizationId!);
    const body = { collectorName: 'Amara Okafor', identifiedBy: 'id_checked' };
    const refused = await member.post('/api/handovers', { ...body, itemIds: [signed.id], signatureData: signature });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: TOO_MANY_SIGNATURES, code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await rowsOf(admin.organizationId!)).toEqual(before);
    expect((await itemOf(member, signed.id)).status).toBe('pending');
    // A hand-over without a signature decodes nothing and is not counted; another organization signs.
    expect((await member.post('/api/handovers', { ...body, itemIds: [unsigned.id] })).statusCode).toBe(201);
    const theirs = await logItem(other.member, other.amara.id);
    const elsewhere = await other.member.post('/api/handovers', {
      ...body,
      itemIds: [theirs.id],
      signatureData: signature,
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
  });
});

describe('proof that is checked, not claimed (issue 41, item 12; decision 050)', () => {
  it('“identified by pickup code” needs the code the collector showed, and it must be the recipient’s', async () => {
    const { admin, member, amara, ben } = await desk();
    const item = await logItem(member, amara.id);
    const body = { itemIds: [item.id], collectorName: 'Amara Okafor', identifiedBy: 'pickup_code' };
    const before = await rowsOf(admin.organizationId!);

    // The probe: the claim with no code at all.
    const none = await member.post('/api/handovers', body);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ message: PICKUP_CODE_REQUIRED, code: 'pickup_code_required' });
    // Someone else's code (Ben's), and what cannot be a code.
    const bens = await member.post('/api/handovers', { ...body, pickupCode: await codeOf(member, ben.id) });
    expect(bens.statusCode).toBe(400);
    expect(bens.json()).toEqual({ message: pickupCodeNotTheirs('Amara Okafor'), code: 'pickup_code_mismatch' });
    const garbage = await member.post('/api/handovers', { ...body, pickupCode: 'hello' });
    expect(garbage.statusCode).toBe(400);
    expect(await rowsOf(admin.organizationId!)).toEqual(before);
    expect((await itemOf(member, item.id)).status).toBe('pending');

    // Her own code, typed as the desk types it (case and dash do not matter).
    const code = await codeOf(member, amara.id);
    const res = await member.post('/api/handovers', { ...body, pickupCode: code.toLowerCase() });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Handover>().identifiedBy).toBe('pickup_code');
  });

  it('a deactivated recipient’s code does not identify anyone at a hand-over (409)', async () => {
    const { admin, member, amara } = await desk();
    const item = await logItem(member, amara.id);
    const code = await codeOf(member, amara.id);
    expect((await admin.put(`/api/recipients/${amara.id}`, { isActive: false })).statusCode).toBe(200);
    const res = await member.post('/api/handovers', {
      itemIds: [item.id],
      collectorName: 'Amara Okafor',
      identifiedBy: 'pickup_code',
      pickupCode: code,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: PICKUP_CODE_INACTIVE, code: 'recipient_inactive' });
    expect((await itemOf(member, item.id)).status).toBe('pending');
  });

  it('a reason for a collector not on the list is a few words, not one character', async () => {
    const { member, amara } = await desk();
    const item = await logItem(member, amara.id);
    const body = { itemIds: [item.id], collectorName: 'Chidi Eze', identifiedBy: 'id_checked' };
    for (const reason of ['x', 'neighbour', '  a   b  ']) {
      const res = await member.post('/api/handovers', { ...body, proxyReason: reason });
      expect(res.statusCode, reason).toBe(400);
      expect(res.json().message, reason).toContain(PROXY_REASON_TOO_SHORT);
    }
    expect((await itemOf(member, item.id)).status).toBe('pending');
    const res = await member.post('/api/handovers', { ...body, proxyReason: 'Her neighbour, asked by phone' });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('a hand-over through an API key records the key by name, on the proof and the timeline', async () => {
    const { admin, adminId, amara } = await desk();
    const integration = await admin.post('/api/integrations', { name: 'Locker bank', type: 'api' });
    expect(integration.statusCode, integration.body).toBe(201);
    const key = integration.json<{ apiKey: string }>().apiKey;
    const item = await logItem(admin, amara.id);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/handovers',
      headers: { authorization: `Bearer ${key}` },
      payload: { itemIds: [item.id], collectorName: 'Amara Okafor', identifiedBy: 'id_checked' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const h = res.json<Handover & { apiKeyName: string | null }>();
    // Still under the key creator (the user it acts as), and now marked as the key's doing.
    expect(h).toMatchObject({ handedOverBy: { id: adminId }, apiKeyName: 'Default key' });
    expect((await admin.get(`/api/handovers/${h.id}`)).json()).toMatchObject({ apiKeyName: 'Default key' });
    const history = (await admin.get(`/api/mail-items/${item.id}/history`)).json<
      Array<{ action: string; notes: string }>
    >();
    expect(history.find((e) => e.action === 'delivered')?.notes).toBe(
      'Collected by Amara Okafor · ID checked · through the API key “Default key”',
    );
    // A person at the desk: no key.
    const next = await logItem(admin, amara.id);
    const desk2 = await admin.post('/api/handovers', {
      itemIds: [next.id],
      collectorName: 'Amara Okafor',
      identifiedBy: 'id_checked',
    });
    expect(desk2.json()).toMatchObject({ apiKeyName: null });
  });
});

describe('a new organization (issue 42, decision 053)', () => {
  it('requires a signature at every hand-over until an admin turns it off', async () => {
    const admin = new Client(t);
    await admin.register();
    const org = await admin.createOrganization('New Desk');
    expect((await admin.get(`/api/organization-settings/${org.id}`)).json()).toMatchObject({
      handoverRequiresSignature: true,
    });
    const amara = await created(admin, '/api/recipients', { firstName: 'Amara', lastName: 'Okafor' });
    const item = await logItem(admin, amara.id);
    const base = { itemIds: [item.id], collectorName: 'Amara Okafor', identifiedBy: 'id_checked' };
    const unsigned = await admin.post('/api/handovers', base);
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toEqual({ message: SIGNATURE_REQUIRED, code: 'signature_required' });
    expect((await itemOf(admin, item.id)).status).toBe('pending');
    // "How identified" and the collector are always asked for.
    for (const missing of ['identifiedBy', 'collectorName'] as const) {
      const { [missing]: _, ...without } = base;
      const res = await admin.post('/api/handovers', { ...without, signatureData: signature });
      expect(res.statusCode, missing).toBe(400);
    }
    expect((await admin.post('/api/handovers', { ...base, signatureData: signature })).statusCode).toBe(201);

    const other = await logItem(admin, amara.id);
    const off = await admin.put(`/api/organization-settings/${org.id}`, { handoverRequiresSignature: false });
    expect(off.statusCode).toBe(200);
    expect((await admin.post('/api/handovers', { ...base, itemIds: [other.id] })).statusCode).toBe(201);
  });
});
