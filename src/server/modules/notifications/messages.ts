import crypto from 'node:crypto';
import { COLLECTOR_NOT_RECORDED, itemTypeLabel, itemTypeNoun, withArticle } from '../../../contract';

/** The three messages a recipient can get about an item. */
export type MessageKind = 'arrival' | 'reminder' | 'receipt';

export type MessageContext = {
  organization: { name: string; logoUrl: string | null; timezone: string };
  /** `pickupCode` as the desk shows it (K7M-4PX): what the recipient shows to collect (decision 031). */
  recipient: { firstName: string; lastName: string; pickupCode: string | null };
  item: {
    type: string;
    sender: string | null;
    courierCompany: string | null;
    trackingNumber: string | null;
    location: string | null;
    arrivedAt: Date;
    deliveredAt: Date | null;
    /** Who collected it, as recorded; null: nobody was (a status change), and the receipt says so. */
    collectorName: string | null;
    hasPhoto: boolean;
    /** It matched a tracking number the recipient registered (decision 033): the arrival says so. */
    expected?: boolean;
    /** The proof the item was handed over with, for the receipt: how identified, what was taken. */
    handover: { identified: string; signed: boolean; photographed: boolean } | null;
  };
  /**
   * The receipt of a hand-over of several items lists them all, in one message (decision 053);
   * absent or one item: the receipt is about `item` alone.
   */
  receiptItems?: ReceiptItem[];
  pickupInstructions: string | null;
  unsubscribeUrl: string;
  /**
   * The recipient's own page (decision 032), in arrivals and reminders: its single-use token is
   * the PORTAL_TOKEN_PLACEHOLDER until the worker mints it at send time. Absent: no link.
   */
  portalUrl?: string | null;
};

/** An item as the receipt of its hand-over lists it. */
type ReceiptItem = { type: string; sender: string | null; trackingNumber: string | null };

/** "Package from Acme (1Z999)": one line of a hand-over's receipt. */
const receiptLine = (i: ReceiptItem) =>
  `${itemTypeLabel(i.type)}${i.sender ? ` from ${i.sender}` : ''}${i.trackingNumber ? ` (${i.trackingNumber})` : ''}`;

/** The items of a receipt for several items, else null (a receipt of one item, or another message). */
const manyItems = (ctx: MessageContext, kind: MessageKind) =>
  kind === 'receipt' && ctx.receiptItems && ctx.receiptItems.length > 1 ? ctx.receiptItems : null;

/** Stands in a rendered message for the token of its portal link, minted when the message goes out. */
export const PORTAL_TOKEN_PLACEHOLDER = '__PORTAL_LINK_TOKEN__';

export type RenderedEmail = { subject: string; text: string; html: string };

/** The CID the arrival email's thumbnail is attached under (referenced from the HTML part). */
export const THUMBNAIL_CID = 'thumbnail@pigeonhole';
/** The CID of the pickup code's QR in the arrival and reminder emails. */
export const PICKUP_QR_CID = 'pickup-code@pigeonhole';
/** The CID of the collector's signature in the receipt. */
export const SIGNATURE_CID = 'signature@pigeonhole';

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** "A fragile parcel": a sentence's first words (decision 063). */
const capitalized = (s: string) => s[0]!.toUpperCase() + s.slice(1);

export function formatInZone(date: Date, timezone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' }).format(
      date,
    );
  } catch {
    return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }).format(date);
  }
}

/** The collector as recorded with the delivery, or null: never the recipient's name in its place. */
const collector = (ctx: MessageContext) => ctx.item.collectorName?.trim() || null;

function details(ctx: MessageContext, kind: MessageKind): Array<[string, string]> {
  const { item } = ctx;
  const many = manyItems(ctx, kind);
  const rows: Array<[string, string]> = many
    ? many.map((each, n): [string, string] => [`Item ${n + 1}`, receiptLine(each)])
    : [['Type', itemTypeLabel(item.type)]];
  if (!many) {
    if (item.sender) rows.push(['Sender', item.sender]);
    if (item.courierCompany) rows.push(['Courier', item.courierCompany]);
    if (item.trackingNumber) rows.push(['Tracking number', item.trackingNumber]);
    if (kind !== 'receipt' && item.location) rows.push(['Where', item.location]);
    rows.push(['Arrived', formatInZone(item.arrivedAt, ctx.organization.timezone)]);
  }
  if (kind === 'receipt' && !collector(ctx)) {
    // Marked delivered without a hand-over (issue 41 item 6): nobody's name is supplied for it.
    rows.push(['Marked delivered', formatInZone(item.deliveredAt ?? new Date(), ctx.organization.timezone)]);
    rows.push(['Collector', COLLECTOR_NOT_RECORDED]);
  } else if (kind === 'receipt') {
    rows.push(['Collected by', collector(ctx)!]);
    rows.push(['Collected at', formatInZone(item.deliveredAt ?? new Date(), ctx.organization.timezone)]);
    if (item.handover) {
      rows.push(['Identified by', item.handover.identified]);
      const taken = [item.handover.signed && 'signature', item.handover.photographed && 'photo'].filter(Boolean);
      if (taken.length > 0) rows.push(['Proof taken', taken.join(' and ')]);
    }
  }
  return rows;
}

function lead(ctx: MessageContext, kind: MessageKind): { subject: string; intro: string } {
  // The type as a noun, never its key (decision 063): "Your fragile parcel has arrived".
  const what = itemTypeNoun(ctx.item.type);
  const a = capitalized(withArticle(what));
  const org = ctx.organization.name;
  switch (kind) {
    case 'arrival':
      if (ctx.item.expected) {
        const tracking = ctx.item.trackingNumber ? ` (tracking number ${ctx.item.trackingNumber})` : '';
        return {
          subject: `The ${what} you expected has arrived at ${org}`,
          intro: `The ${what} you told us to expect${tracking} has arrived and is ready for pickup.`,
        };
      }
      return {
        subject: `Your ${what} has arrived at ${org}`,
        intro: `${a}${ctx.item.sender ? ` from ${ctx.item.sender}` : ''} has arrived for you and is ready for pickup.`,
      };
    case 'reminder':
      return {
        subject: `Reminder: your ${what} is waiting at ${org}`,
        intro: `${a}${ctx.item.sender ? ` from ${ctx.item.sender}` : ''} is still waiting for you. Please collect it at your earliest convenience.`,
      };
    case 'receipt':
      if (!collector(ctx)) {
        return {
          subject: `Your ${what} was marked as delivered at ${org}`,
          intro: `Your ${what}${ctx.item.sender ? ` from ${ctx.item.sender}` : ''} was marked as delivered. Who collected it was not recorded: if you did not collect it, please contact ${org}.`,
        };
      }
      if (manyItems(ctx, kind)) {
        const n = ctx.receiptItems!.length;
        return {
          subject: `Your ${n} items were picked up at ${org}`,
          intro: `This confirms that ${n} items for you were collected together:`,
        };
      }
      return {
        subject: `Your ${what} was picked up at ${org}`,
        intro: `This confirms that your ${what}${ctx.item.sender ? ` from ${ctx.item.sender}` : ''} has been collected.`,
      };
  }
}

export function renderEmail(kind: MessageKind, ctx: MessageContext): RenderedEmail {
  const { subject, intro } = lead(ctx, kind);
  const rows = details(ctx, kind);
  const greeting = `Hello ${ctx.recipient.firstName},`;
  const pickup = kind !== 'receipt' && ctx.pickupInstructions ? ctx.pickupInstructions : null;
  const org = ctx.organization.name;
  const portal = kind !== 'receipt' && ctx.portalUrl ? ctx.portalUrl : null;
  const unsubscribe = `You receive these messages because ${org} logs mail for you. Unsubscribe: ${ctx.unsubscribeUrl}`;

  // The pickup code is what the recipient needs at the desk: the first thing in either part (decision 063).
  const pickupCode = kind !== 'receipt' ? ctx.recipient.pickupCode : null;
  const text = [
    ...(pickupCode ? [`Your pickup code: ${pickupCode}`, 'Show this code at the desk to collect.', ''] : []),
    org,
    '',
    greeting,
    '',
    intro,
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    ...(pickup ? ['', `Pickup: ${pickup}`] : []),
    ...(portal ? ['', `Your packages, your code, holds and how we reach you: ${portal}`] : []),
    '',
    '--',
    unsubscribe,
    '',
  ].join('\n');

  const logo =
    ctx.organization.logoUrl && /^https?:\/\//.test(ctx.organization.logoUrl)
      ? `<img src="${escapeHtml(ctx.organization.logoUrl)}" alt="" height="40" style="height:40px;vertical-align:middle;margin-right:8px">`
      : '';
  const photo =
    kind === 'arrival' && ctx.item.hasPhoto
      ? `<p><img src="cid:${THUMBNAIL_CID}" alt="Photo of the ${escapeHtml(itemTypeNoun(ctx.item.type))}" width="160" style="border-radius:6px;max-width:160px"></p>`
      : '';
  // Real text, large and high-contrast (white on near-black, about 17:1), with the QR beside it.
  const code = pickupCode
    ? `<table role="presentation" data-pickup-code style="border-collapse:collapse;width:100%;margin:16px 0;background:#111827;border-radius:8px"><tr>
<td style="padding:16px 20px;color:#ffffff"><div style="font-size:14px;color:#e5e7eb">Your pickup code</div><div style="font-family:'Courier New',Courier,monospace;font-size:36px;line-height:44px;font-weight:bold;letter-spacing:4px;white-space:nowrap;color:#ffffff">${escapeHtml(pickupCode)}</div><div style="font-size:14px;color:#e5e7eb">Show this code at the desk to collect.</div></td>
<td style="padding:12px;text-align:right;width:120px"><img src="cid:${PICKUP_QR_CID}" alt="QR code of your pickup code ${escapeHtml(pickupCode)}" width="120" height="120" style="background:#ffffff;border-radius:4px"></td>
</tr></table>`
    : '';
  const signature =
    kind === 'receipt' && ctx.item.handover?.signed
      ? `<p><img src="cid:${SIGNATURE_CID}" alt="Signature of ${escapeHtml(ctx.item.collectorName ?? 'the collector')}" width="240" style="max-width:240px;border:1px solid #e5e7eb;border-radius:6px"></p>`
      : '';
  const html = `<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;max-width:560px;margin:0 auto;padding:16px">
<div style="font-size:18px;font-weight:bold;margin-bottom:16px">${logo}${escapeHtml(org)}</div>
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
${code}
<table style="border-collapse:collapse;margin:12px 0">
${rows.map(([k, v]) => `<tr><td style="padding:4px 12px 4px 0;color:#6b7280">${escapeHtml(k)}</td><td style="padding:4px 0">${escapeHtml(v)}</td></tr>`).join('\n')}
</table>
${photo}
${signature}
${pickup ? `<p style="background:#f3f4f6;padding:8px 12px;border-radius:6px"><strong>Pickup:</strong> ${escapeHtml(pickup)}</p>` : ''}
${portal ? `<p><a href="${escapeHtml(portal)}" style="display:inline-block;background:#2563eb;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">See your packages</a><br><span style="font-size:12px;color:#6b7280">Your code, holds and how we reach you. The link works once, for 7 days.</span></p>` : ''}
<hr style="border:none;border-top:1px solid #e5e7eb;margin-top:24px">
<p style="font-size:12px;color:#6b7280">You receive these messages because ${escapeHtml(org)} logs mail for you. <a href="${escapeHtml(ctx.unsubscribeUrl)}">Unsubscribe</a></p>
</body></html>`;
  return { subject, text, html };
}

/** Characters of the GSM 03.38 basic set: a body made only of these fits 160 in one segment (UCS-2 only 70). */
const GSM =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_SET = new Set(GSM);

/** Replaces characters outside the GSM set (curly quotes, emoji, accents it lacks) so the body stays one 160-character segment. */
export function toGsm(s: string): string {
  return [...s.normalize('NFKD')]
    .map((c) => {
      if (GSM_SET.has(c)) return c;
      if (/[\u2018\u2019]/.test(c)) return "'";
      if (/[\u201c\u201d]/.test(c)) return '"';
      if (/[\u2013\u2014]/.test(c)) return '-';
      if (/[\u0300-\u036f]/.test(c)) return '';
      return '';
    })
    .join('');
}

export const SMS_SEGMENT = 160;

/** One SMS segment where possible: the optional parts are dropped, then names shortened, until it fits. */
export function renderSms(kind: MessageKind, ctx: MessageContext): string {
  const what = itemTypeNoun(ctx.item.type);
  const a = withArticle(what);
  const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}.` : s);
  const build = (org: string, withSender: boolean, withLocation: boolean, withPickup: boolean) => {
    const from = withSender && ctx.item.sender ? ` from ${ctx.item.sender}` : '';
    const at = withLocation && ctx.item.location ? ` (${ctx.item.location})` : '';
    const pickup = withPickup && ctx.pickupInstructions ? ` ${ctx.pickupInstructions}` : '';
    // The code is what the recipient needs at the desk: it comes first after the sender's name and
    // stays while the rest is shortened (decision 063).
    const code = ctx.recipient.pickupCode ? ` Pickup code ${ctx.recipient.pickupCode}.` : '';
    switch (kind) {
      case 'arrival':
        return ctx.item.expected
          ? `${org}:${code} The ${what} you expected has arrived${at}.${pickup}`
          : `${org}:${code} ${capitalized(a)}${from} has arrived for you${at}.${pickup}`;
      case 'reminder':
        return `${org}:${code} Reminder: ${a}${from} is still waiting for you${at}.${pickup}`;
      case 'receipt': {
        const on = formatInZone(ctx.item.deliveredAt ?? new Date(), ctx.organization.timezone);
        const by = collector(ctx);
        const many = manyItems(ctx, kind);
        if (many && by) {
          const list = withSender ? ` (${many.map((i) => itemTypeNoun(i.type)).join(', ')})` : '';
          return `${org}: your ${many.length} items${list} were collected by ${by} on ${on}.`;
        }
        return by
          ? `${org}: your ${what}${from} was collected by ${by} on ${on}.`
          : `${org}: your ${what}${from} was marked as delivered on ${on}. ${COLLECTOR_NOT_RECORDED}.`;
      }
    }
  };
  const org = ctx.organization.name;
  const attempts: Array<() => string> = [
    () => build(org, true, true, true),
    () => build(org, true, true, false),
    () => build(org, false, true, false),
    () => build(clip(org, 30), false, true, false),
    () => build(clip(org, 30), false, false, false),
  ];
  for (const attempt of attempts) {
    const body = toGsm(attempt());
    if (body.length <= SMS_SEGMENT) return body;
  }
  return clip(toGsm(attempts[attempts.length - 1]!()), SMS_SEGMENT);
}

/** The unsubscribe token of a recipient: its id and an HMAC of it (no database row needed). */
export function unsubscribeToken(key: Buffer, recipientId: string): string {
  return `${recipientId}.${crypto.createHmac('sha256', key).update(`unsubscribe:${recipientId}`).digest('base64url').slice(0, 32)}`;
}

/** The recipient id of a valid token, or undefined. */
export function verifyUnsubscribeToken(keys: readonly Buffer[], token: string): string | undefined {
  const dot = token.indexOf('.');
  if (dot < 0) return undefined;
  const recipientId = token.slice(0, dot);
  if (!/^[0-9a-f-]{36}$/i.test(recipientId)) return undefined;
  const given = Buffer.from(token);
  const signedBy = (key: Buffer) => {
    const expected = Buffer.from(unsubscribeToken(key, recipientId));
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  };
  return keys.some(signedBy) ? recipientId : undefined;
}

/** The key of unsubscribe tokens, derived from the secrets key (never the key itself). */
export const unsubscribeKey = (secretsKey: Buffer) =>
  crypto.createHmac('sha256', secretsKey).update('pigeonhole-unsubscribe-v1').digest();
