import crypto from 'node:crypto';
import {
  DEFAULT_LANGUAGE,
  IDENTIFIED_BY_LABELS,
  LANGUAGE_LOCALES,
  PORTAL_EMAILED_LINK_DAYS,
  itemTypeLabel,
  itemTypeNoun,
  type Language,
} from '../../../contract';
import type { Translate } from '../../../contract/i18n';
import { messagesIn } from '../../lib/catalogues';

/** The three messages a recipient can get about an item. */
export type MessageKind = 'arrival' | 'reminder' | 'receipt';

export type MessageContext = {
  organization: { name: string; logoUrl: string | null; timezone: string };
  /** `pickupCode` as the desk shows it (K7M-4PX): what the recipient shows to collect (decision 031). */
  recipient: { firstName: string; lastName: string; pickupCode: string | null };
  /**
   * The language the message is written in (decision 066): the recipient's, else the
   * organization's default; absent: English.
   */
  language?: Language | null;
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
    /**
     * The proof the item was handed over with, for the receipt: how identified (an IdentifiedBy
     * key, or words as recorded), what was taken.
     */
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

/** "A fragile parcel", "Ein Paket": a sentence's first letter (decision 063); scripts without case are left as they are. */
const capitalized = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** A moment in the organization's time zone, written the way the reader's locale writes dates (decision 066). */
export function formatInZone(date: Date, timezone: string, locale = 'en-US'): string {
  const options = { dateStyle: 'medium', timeStyle: 'short' } as const;
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: timezone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(date);
  }
}

/** The collector as recorded with the delivery, or null: never the recipient's name in its place. */
const collector = (ctx: MessageContext) => ctx.item.collectorName?.trim() || null;

const yes = (v: unknown) => (v ? 'yes' : 'no');

/**
 * How an item's type reads in a language (decisions 063, 066): a built-in type by its catalogue
 * entry (noun, article, grammatical gender, chosen by ICU `select` on the type's key); a type an
 * admin wrote stays as written, inside the language's own wrapper ("envío «DHL box»"). English
 * keeps 063's rule of lower-casing the custom noun's first word inside a sentence ("your fragile
 * parcel"); other languages keep it as written (German nouns are capitalised).
 */
function typeWords(t: Translate, language: Language, type: string) {
  const custom = language === 'en' ? itemTypeNoun(type) : itemTypeLabel(type);
  const customArticle = t('type.customArticle', { vowel: yes(/^[aeiou]/i.test(custom)) });
  return {
    label: t('type.label', { type, custom: itemTypeLabel(type) }),
    noun: t('type.noun', { type, custom }),
    a: t('type.a', { type, custom, customArticle }),
    gender: t('type.gender', { type }),
  };
}

type Words = {
  t: Translate;
  language: Language;
  locale: string;
  when: (d: Date) => string;
  type: ReturnType<typeof typeWords>;
};

function wordsOf(ctx: MessageContext): Words {
  const language = ctx.language ?? DEFAULT_LANGUAGE;
  const t = messagesIn(language);
  const locale = LANGUAGE_LOCALES[language];
  return {
    t,
    language,
    locale,
    when: (d) => formatInZone(d, ctx.organization.timezone, locale),
    type: typeWords(t, language, ctx.item.type),
  };
}

/** "Package from Acme (1Z999)": one line of a hand-over's receipt. */
const receiptLine = (w: Words, i: ReceiptItem) =>
  w.t('receipt.line', {
    label: typeWords(w.t, w.language, i.type).label,
    hasSender: yes(i.sender),
    sender: i.sender ?? '',
    hasTracking: yes(i.trackingNumber),
    tracking: i.trackingNumber ?? '',
  });

function details(ctx: MessageContext, kind: MessageKind, w: Words): Array<[string, string]> {
  const { item } = ctx;
  const { t } = w;
  const many = manyItems(ctx, kind);
  const rows: Array<[string, string]> = many
    ? many.map((each, n): [string, string] => [t('detail.item', { n: n + 1 }), receiptLine(w, each)])
    : [[t('detail.type'), w.type.label]];
  if (!many) {
    if (item.sender) rows.push([t('detail.sender'), item.sender]);
    if (item.courierCompany) rows.push([t('detail.courier'), item.courierCompany]);
    if (item.trackingNumber) rows.push([t('detail.tracking'), item.trackingNumber]);
    if (kind !== 'receipt' && item.location) rows.push([t('detail.where'), item.location]);
    rows.push([t('detail.arrived'), w.when(item.arrivedAt)]);
  }
  if (kind === 'receipt' && !collector(ctx)) {
    // Marked delivered without a hand-over (issue 41 item 6): nobody's name is supplied for it.
    rows.push([t('detail.markedDelivered'), w.when(item.deliveredAt ?? new Date())]);
    rows.push([t('detail.collector'), t('detail.collectorNotRecorded')]);
  } else if (kind === 'receipt') {
    rows.push([t('detail.collectedBy'), collector(ctx)!]);
    rows.push([t('detail.collectedAt'), w.when(item.deliveredAt ?? new Date())]);
    if (item.handover) {
      rows.push([t('detail.identifiedBy'), t('detail.identified', { how: identifiedKey(item.handover.identified) })]);
      const { signed, photographed } = item.handover;
      if (signed || photographed) {
        rows.push([
          t('detail.proofTaken'),
          t('detail.proof', { signed: yes(signed), photographed: yes(photographed) }),
        ]);
      }
    }
  }
  return rows;
}

/** How the collector was identified, as its key when it is one of ours (English labels of old rows included). */
function identifiedKey(identified: string): string {
  if (identified in IDENTIFIED_BY_LABELS) return identified;
  const byLabel = Object.entries(IDENTIFIED_BY_LABELS).find(([, label]) => label === identified);
  return byLabel ? byLabel[0] : identified;
}

function lead(ctx: MessageContext, kind: MessageKind, w: Words): { subject: string; intro: string } {
  // The type as a noun, never its key (decision 063): "Your fragile parcel has arrived".
  const { t } = w;
  const { noun, a, gender } = w.type;
  const org = ctx.organization.name;
  const sender = { hasSender: yes(ctx.item.sender), sender: ctx.item.sender ?? '' };
  switch (kind) {
    case 'arrival':
      if (ctx.item.expected) {
        const tracking = { hasTracking: yes(ctx.item.trackingNumber), tracking: ctx.item.trackingNumber ?? '' };
        return {
          subject: capitalized(t('arrival.expected.subject', { noun, gender, org })),
          intro: capitalized(t('arrival.expected.intro', { noun, gender, ...tracking })),
        };
      }
      return {
        subject: capitalized(t('arrival.subject', { noun, gender, org })),
        intro: capitalized(t('arrival.intro', { a, gender, ...sender })),
      };
    case 'reminder':
      return {
        subject: t('reminder.subject', { noun, gender, org }),
        intro: capitalized(t('reminder.intro', { a, gender, ...sender })),
      };
    case 'receipt':
      if (!collector(ctx)) {
        return {
          subject: capitalized(t('receipt.unrecorded.subject', { noun, gender, org })),
          intro: capitalized(t('receipt.unrecorded.intro', { noun, gender, org, ...sender })),
        };
      }
      if (manyItems(ctx, kind)) {
        const count = ctx.receiptItems!.length;
        return {
          subject: t('receipt.many.subject', { count, org }),
          intro: t('receipt.many.intro', { count }),
        };
      }
      return {
        subject: capitalized(t('receipt.subject', { noun, gender, org })),
        intro: t('receipt.intro', { noun, gender, ...sender }),
      };
  }
}

export function renderEmail(kind: MessageKind, ctx: MessageContext): RenderedEmail {
  const w = wordsOf(ctx);
  const { t } = w;
  const { subject, intro } = lead(ctx, kind, w);
  const rows = details(ctx, kind, w);
  const row = (label: string, value: string) => t('email.row', { label, value });
  const greeting = t('email.greeting', { firstName: ctx.recipient.firstName });
  const pickup = kind !== 'receipt' && ctx.pickupInstructions ? ctx.pickupInstructions : null;
  const org = ctx.organization.name;
  const portal = kind !== 'receipt' && ctx.portalUrl ? ctx.portalUrl : null;
  const footer = t('email.footer', { org });
  const unsubscribe = `${footer} ${row(t('email.unsubscribe'), ctx.unsubscribeUrl)}`;
  const codeLabel = t('email.code.label');
  const codeHint = t('email.code.hint');

  // The pickup code is what the recipient needs at the desk: the first thing in either part (decision 063).
  const pickupCode = kind !== 'receipt' ? ctx.recipient.pickupCode : null;
  const text = [
    ...(pickupCode ? [row(codeLabel, pickupCode), codeHint, ''] : []),
    org,
    '',
    greeting,
    '',
    intro,
    '',
    ...rows.map(([k, v]) => row(k, v)),
    ...(pickup ? ['', row(t('email.pickup'), pickup)] : []),
    ...(portal ? ['', row(t('email.portal.text'), portal)] : []),
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
      ? `<p><img src="cid:${THUMBNAIL_CID}" alt="${escapeHtml(t('email.photoAlt', { noun: w.type.noun, gender: w.type.gender }))}" width="160" style="border-radius:6px;max-width:160px"></p>`
      : '';
  // Real text, large and high-contrast (white on near-black, about 17:1), with the QR beside it.
  const code = pickupCode
    ? `<table role="presentation" data-pickup-code style="border-collapse:collapse;width:100%;margin:16px 0;background:#111827;border-radius:8px"><tr>
<td style="padding:16px 20px;color:#ffffff"><div style="font-size:14px;color:#e5e7eb">${escapeHtml(codeLabel)}</div><div style="font-family:'Courier New',Courier,monospace;font-size:36px;line-height:44px;font-weight:bold;letter-spacing:4px;white-space:nowrap;color:#ffffff">${escapeHtml(pickupCode)}</div><div style="font-size:14px;color:#e5e7eb">${escapeHtml(codeHint)}</div></td>
<td style="padding:12px;text-align:right;width:120px"><img src="cid:${PICKUP_QR_CID}" alt="${escapeHtml(t('email.code.qrAlt', { code: pickupCode }))}" width="120" height="120" style="background:#ffffff;border-radius:4px"></td>
</tr></table>`
    : '';
  const signatureAlt = ctx.item.collectorName
    ? t('email.signatureAlt', { name: ctx.item.collectorName })
    : t('email.signatureAlt.unknown');
  const signature =
    kind === 'receipt' && ctx.item.handover?.signed
      ? `<p><img src="cid:${SIGNATURE_CID}" alt="${escapeHtml(signatureAlt)}" width="240" style="max-width:240px;border:1px solid #e5e7eb;border-radius:6px"></p>`
      : '';
  const html = `<!doctype html>
<html lang="${w.language}"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;max-width:560px;margin:0 auto;padding:16px">
<div style="font-size:18px;font-weight:bold;margin-bottom:16px">${logo}${escapeHtml(org)}</div>
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
${code}
<table style="border-collapse:collapse;margin:12px 0">
${rows.map(([k, v]) => `<tr><td style="padding:4px 12px 4px 0;color:#6b7280">${escapeHtml(k)}</td><td style="padding:4px 0">${escapeHtml(v)}</td></tr>`).join('\n')}
</table>
${photo}
${signature}
${pickup ? `<p style="background:#f3f4f6;padding:8px 12px;border-radius:6px"><strong>${escapeHtml(t('email.pickup'))}:</strong> ${escapeHtml(pickup)}</p>` : ''}
${portal ? `<p><a href="${escapeHtml(portal)}" style="display:inline-block;background:#2563eb;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(t('email.portal.button'))}</a><br><span style="font-size:12px;color:#6b7280">${escapeHtml(t('email.portal.hint', { days: PORTAL_EMAILED_LINK_DAYS }))}</span></p>` : ''}
<hr style="border:none;border-top:1px solid #e5e7eb;margin-top:24px">
<p style="font-size:12px;color:#6b7280">${escapeHtml(footer)} <a href="${escapeHtml(ctx.unsubscribeUrl)}">${escapeHtml(t('email.unsubscribe'))}</a></p>
</body></html>`;
  return { subject, text, html };
}

/** Characters of the GSM 03.38 basic set: a body made only of these fits 160 in one segment (UCS-2 only 70). */
const GSM =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_SET = new Set(GSM);

/** Replaces characters outside the GSM set (curly quotes, emoji, accents it lacks) so the body stays one 160-character segment. */
export function toGsm(s: string): string {
  // Character by character: one the GSM set has stays as it is (é, ü, ñ, ß: French, German and
  // Spanish keep their accents where GSM-7 has them); another loses its accent (á -> a, ç -> c).
  return [...s.normalize('NFC')]
    .map((c) => {
      if (GSM_SET.has(c)) return c;
      if (/[\u2018\u2019]/.test(c)) return "'";
      // Quotation marks of other languages (« », „ “) read as plain ones rather than vanish.
      if (/[\u201c\u201d\u201e\u00ab\u00bb]/.test(c)) return '"';
      if (/[\u2013\u2014]/.test(c)) return '-';
      return [...c.normalize('NFKD')].filter((part) => GSM_SET.has(part)).join('');
    })
    .join('');
}

export const SMS_SEGMENT = 160;

/**
 * One SMS segment where possible: the optional parts are dropped, then names shortened, until it
 * fits. Latin-script languages are kept to GSM-7 (toGsm: 160 characters a segment); Chinese
 * cannot be, and goes as UCS-2 (70 characters a segment, 67 when split), whatever its length.
 */
export function renderSms(kind: MessageKind, ctx: MessageContext): string {
  const w = wordsOf(ctx);
  const { t } = w;
  const { noun, a, gender } = w.type;
  const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}.` : s);
  const build = (org: string, withSender: boolean, withLocation: boolean, withPickup: boolean) => {
    const sender = { hasSender: yes(withSender && ctx.item.sender), sender: ctx.item.sender ?? '' };
    const at = { hasLocation: yes(withLocation && ctx.item.location), location: ctx.item.location ?? '' };
    const pickup = withPickup && ctx.pickupInstructions ? ` ${ctx.pickupInstructions}` : '';
    // The code is what the recipient needs at the desk: it comes first after the sender's name and
    // stays while the rest is shortened (decision 063).
    const code = ctx.recipient.pickupCode ? ` ${t('sms.code', { code: ctx.recipient.pickupCode })}` : '';
    switch (kind) {
      case 'arrival':
        return ctx.item.expected
          ? `${org}:${code} ${capitalized(t('sms.arrival.expected', { noun, gender, ...at }))}${pickup}`
          : `${org}:${code} ${capitalized(t('sms.arrival', { a, gender, ...sender, ...at }))}${pickup}`;
      case 'reminder':
        return `${org}:${code} ${capitalized(t('sms.reminder', { a, gender, ...sender, ...at }))}${pickup}`;
      case 'receipt': {
        const date = w.when(ctx.item.deliveredAt ?? new Date());
        const by = collector(ctx);
        const many = manyItems(ctx, kind);
        if (many && by) {
          const list = many.map((i) => typeWords(t, w.language, i.type).noun).join(', ');
          return `${org}: ${t('sms.receipt.many', { count: many.length, hasList: yes(withSender), list, collector: by, date })}`;
        }
        return by
          ? `${org}: ${t('sms.receipt', { noun, gender, ...sender, collector: by, date })}`
          : `${org}: ${t('sms.receipt.unrecorded', { noun, gender, ...sender, date })}`;
      }
    }
  };
  // Chinese has no GSM-7 form: toGsm would erase it, so it is sent as written (UCS-2).
  const encode = w.language === 'zh-Hans' ? (s: string) => s : toGsm;
  const org = ctx.organization.name;
  const attempts: Array<() => string> = [
    () => build(org, true, true, true),
    () => build(org, true, true, false),
    () => build(org, false, true, false),
    () => build(clip(org, 30), false, true, false),
    () => build(clip(org, 30), false, false, false),
  ];
  for (const attempt of attempts) {
    const body = encode(attempt());
    if (body.length <= SMS_SEGMENT) return body;
  }
  return clip(encode(attempts[attempts.length - 1]!()), SMS_SEGMENT);
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
