import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES, type Language } from '../../../contract';
import { compiledMessageCount } from '../../../contract/i18n';
import { linkMessage } from '../portal/portal.service';
import { renderEmail, renderSms, SMS_SEGMENT, toGsm, type MessageContext } from './messages';

/*
 * The messages of each language in a snapshot (issue 44 §4, decision 066): arrival, reminder and
 * receipt (email subject and text, SMS), the arrival of an expected package, a receipt without a
 * recorded collector and one of several items, and the requested link's email and SMS. A change
 * of wording shows in the snapshot's diff, for a reader of that language to review.
 */
const context = (language: Language, type = 'package', over: Partial<MessageContext['item']> = {}): MessageContext => ({
  organization: { name: 'Harbor View', logoUrl: null, timezone: 'America/New_York' },
  recipient: { firstName: 'Amara', lastName: 'Okafor', pickupCode: 'K7M-4PX' },
  language,
  item: {
    type,
    sender: 'Outdoor Gear Co.',
    courierCompany: 'UPS',
    trackingNumber: '1Z999AA10123456784',
    location: 'Shelf A',
    arrivedAt: new Date('2026-11-28T15:30:00Z'),
    deliveredAt: new Date('2026-11-29T21:05:00Z'),
    collectorName: 'Ben Ito',
    hasPhoto: true,
    handover: { identified: 'pickup code', signed: true, photographed: true },
    ...over,
  },
  pickupInstructions: 'Front desk, 8am to 8pm',
  unsubscribeUrl: 'http://pigeonhole.test/u',
  portalUrl: 'http://pigeonhole.test/p',
});

const email = (kind: 'arrival' | 'reminder' | 'receipt', ctx: MessageContext) => {
  const { subject, text } = renderEmail(kind, ctx);
  return `Subject: ${subject}\n\n${text}`;
};

describe.each(SUPPORTED_LANGUAGES)('messages in %s', (language) => {
  it('arrival, reminder and receipt: email and SMS', () => {
    const ctx = context(language);
    expect({
      arrivalEmail: email('arrival', ctx),
      arrivalSms: renderSms('arrival', ctx),
      reminderEmail: email('reminder', ctx),
      reminderSms: renderSms('reminder', ctx),
      receiptEmail: email('receipt', ctx),
      receiptSms: renderSms('receipt', ctx),
    }).toMatchSnapshot();
  });

  it('an expected package, a receipt nobody was recorded for, a receipt of several items', () => {
    const expected = context(language, 'letter', { expected: true });
    const unrecorded = context(language, 'certified_mail', { collectorName: null, handover: null });
    const many: MessageContext = {
      ...context(language),
      receiptItems: [
        { type: 'package', sender: 'Acme', trackingNumber: '1Z1' },
        { type: 'letter', sender: null, trackingNumber: null },
        { type: 'DHL box', sender: null, trackingNumber: null },
      ],
    };
    expect({
      expectedEmail: email('arrival', expected),
      expectedSms: renderSms('arrival', expected),
      unrecordedEmail: email('receipt', unrecorded),
      unrecordedSms: renderSms('receipt', unrecorded),
      manyEmail: email('receipt', many),
      manySms: renderSms('receipt', many),
    }).toMatchSnapshot();
  });

  it("each built-in type and an admin's own type, in the arrival's sentences", () => {
    const types = ['package', 'letter', 'certified_mail', 'express', 'fragile', 'Fragile parcel', 'oversized_box'];
    expect(
      types.map((type) => {
        const { subject, text } = renderEmail('arrival', context(language, type));
        return `${subject} | ${text.split('\n').find((l) => l.includes('Outdoor Gear Co.'))}`;
      }),
    ).toMatchSnapshot();
  });

  it("the requested link's email and SMS", () => {
    expect(
      linkMessage(language, {
        firstName: 'Amara',
        organizationName: 'Harbor View',
        url: 'http://pigeonhole.test/my/open#token=T',
      }),
    ).toMatchSnapshot();
  });

  it('never shows a type key, and keeps the pickup code first', () => {
    // ('express' is a French and Portuguese word too: the keys with an underscore are the telling ones.)
    for (const type of ['certified_mail', 'oversized_box']) {
      for (const kind of ['arrival', 'reminder', 'receipt'] as const) {
        const ctx = context(language, type);
        expect(renderEmail(kind, ctx).text).not.toContain(type);
        expect(renderSms(kind, ctx)).not.toContain(type);
      }
    }
    const { text, html } = renderEmail('arrival', context(language));
    expect(text.split('\n')[0]).toContain('K7M-4PX');
    // The code's block before the details' table.
    expect(html.indexOf('data-pickup-code')).toBeLessThan(html.indexOf('margin:12px 0'));
    expect(html).toContain(`<html lang="${language}">`);
    expect(renderSms('arrival', context(language))).toMatch(/^Harbor View: \S/);
    expect(renderSms('arrival', context(language))).toContain('K7M-4PX');
  });

  it('SMS: GSM-7 and one segment where the language allows; Chinese as UCS-2', () => {
    for (const kind of ['arrival', 'reminder', 'receipt'] as const) {
      const body = renderSms(kind, context(language));
      if (language === 'zh-Hans') {
        // UCS-2: 70 characters a segment, 67 each once split; these take 2 or 3 segments.
        expect(body).toMatch(/[\u4e00-\u9fff]/);
        expect(body.length).toBeLessThanOrEqual(SMS_SEGMENT);
      } else {
        expect(toGsm(body)).toBe(body);
        expect(body.length).toBeLessThanOrEqual(SMS_SEGMENT);
      }
    }
  });
});

describe('the formatter', () => {
  it('compiles a message once and reuses it', () => {
    renderEmail('arrival', context('es'));
    const after = compiledMessageCount();
    renderEmail('arrival', context('es'));
    renderSms('arrival', context('es'));
    renderEmail('arrival', context('es'));
    expect(compiledMessageCount()).toBeLessThanOrEqual(after + 6);
    const settled = compiledMessageCount();
    renderSms('arrival', context('es'));
    expect(compiledMessageCount()).toBe(settled);
  });

  it('writes English when no language is given (decision 063 wording as before)', () => {
    const ctx = { ...context('en'), language: undefined };
    expect(renderEmail('arrival', ctx).subject).toBe('Your package has arrived at Harbor View');
  });
});
