import { describe, expect, it } from 'vitest';
import { itemTypeLabel, itemTypeNoun } from '../../../contract';
import { renderEmail, renderSms, type MessageContext, type MessageKind } from './messages';

/** How a recipient's messages name the item and show the pickup code (decision 063). */

const context = (type: string, over: Partial<MessageContext['item']> = {}): MessageContext => ({
  organization: { name: 'Harbor View', logoUrl: null, timezone: 'UTC' },
  recipient: { firstName: 'Amara', lastName: 'Okafor', pickupCode: 'K7M-4PX' },
  item: {
    type,
    sender: 'Outdoor Gear Co.',
    courierCompany: 'UPS',
    trackingNumber: '1Z999AA10123456784',
    location: 'Shelf A',
    arrivedAt: new Date('2026-11-28T10:00:00Z'),
    deliveredAt: new Date('2026-11-29T10:00:00Z'),
    collectorName: 'Amara Okafor',
    hasPhoto: true,
    handover: null,
    ...over,
  },
  pickupInstructions: 'Front desk, 8am to 8pm',
  unsubscribeUrl: 'http://pigeonhole.test/u',
  portalUrl: 'http://pigeonhole.test/p/__PORTAL_LINK_TOKEN__',
});

const KINDS: MessageKind[] = ['arrival', 'reminder', 'receipt'];

/** Every message a recipient can get about an item of this type, as one string per part. */
function allParts(type: string): string[] {
  return KINDS.flatMap((kind) => {
    const email = renderEmail(kind, context(type));
    const many = {
      ...context(type),
      receiptItems: [
        { type, sender: null, trackingNumber: null },
        { type: 'letter', sender: null, trackingNumber: null },
      ],
    };
    const manyEmail = renderEmail('receipt', many);
    return [
      email.subject,
      email.text,
      email.html,
      renderSms(kind, context(type)),
      manyEmail.text,
      manyEmail.html,
      renderSms('receipt', many),
    ];
  });
}

describe('the type of an item in a message', () => {
  it("reads as the type's label, a noun in the sentence: a custom type as the admin wrote it", () => {
    const email = renderEmail('arrival', context('Fragile parcel'));
    expect(email.subject).toBe('Your fragile parcel has arrived at Harbor View');
    expect(email.text).toContain('A fragile parcel from Outdoor Gear Co. has arrived for you');
    expect(email.text).toContain('Type: Fragile parcel');
    expect(email.html).toContain('alt="Photo of the fragile parcel"');
    expect(renderEmail('receipt', context('Fragile parcel')).subject).toBe(
      'Your fragile parcel was picked up at Harbor View',
    );
    expect(renderEmail('reminder', context('Fragile parcel')).subject).toBe(
      'Reminder: your fragile parcel is waiting at Harbor View',
    );
    expect(renderSms('receipt', context('Fragile parcel'))).toContain('your fragile parcel from Outdoor Gear Co.');
  });

  it('gives the built-in adjective types a noun, never "Your fragile was picked up"', () => {
    expect(renderEmail('receipt', context('fragile')).subject).toBe(
      'Your fragile package was picked up at Harbor View',
    );
    expect(renderEmail('arrival', context('express')).text).toContain('An express package from Outdoor Gear Co.');
    expect(renderSms('arrival', context('express'))).toContain('An express package from');
    for (const part of allParts('fragile')) expect(part).not.toMatch(/fragile (was|has|is)\b/i);
  });

  it('keeps names and acronyms as written', () => {
    expect(itemTypeNoun('DHL box')).toBe('DHL box');
    expect(itemTypeNoun('FedEx envelope')).toBe('FedEx envelope');
    expect(renderEmail('arrival', context('DHL box')).subject).toBe('Your DHL box has arrived at Harbor View');
  });

  it('never shows an internal key: certified_mail reads "certified letter", an unknown key is humanised', () => {
    expect(itemTypeLabel('certified_mail')).toBe('Certified letter');
    expect(itemTypeLabel('oversized_box')).toBe('Oversized box');
    expect(renderEmail('arrival', context('certified_mail')).subject).toBe(
      'Your certified letter has arrived at Harbor View',
    );
    for (const type of ['certified_mail', 'oversized_box']) {
      for (const part of allParts(type)) expect(part).not.toContain(type);
    }
  });
});

describe('the pickup code in the arrival message', () => {
  it('is the first thing in the plain text, before the item details', () => {
    const { text } = renderEmail('arrival', context('package'));
    expect(text.startsWith('Your pickup code: K7M-4PX\n')).toBe(true);
    expect(text.indexOf('K7M-4PX')).toBeLessThan(text.indexOf('Type: Package'));
    expect(text.indexOf('K7M-4PX')).toBeLessThan(text.indexOf('Hello Amara'));
    expect(text).not.toMatch(/Your pickup code: K7M-4PX[\s\S]*Your pickup code/);
  });

  it('is a large, high-contrast block of real text above the details in the HTML, with its QR', () => {
    const { html } = renderEmail('arrival', context('package'));
    const block = html.slice(
      html.indexOf('data-pickup-code'),
      html.indexOf('</table>', html.indexOf('data-pickup-code')),
    );
    expect(block).toMatch(/font-size:36px[^>]*>K7M-4PX</);
    expect(block).toContain('background:#111827');
    expect(block).toContain('src="cid:pickup-code@pigeonhole" alt="QR code of your pickup code K7M-4PX"');
    expect(html.indexOf('data-pickup-code')).toBeLessThan(html.indexOf('>Type<'));
    expect(html.indexOf('data-pickup-code')).toBeLessThan(html.indexOf('>Where<'));
    expect(html.match(/K7M-4PX/g)).toHaveLength(2); // the text and the image's alt, no longer a table row
  });

  it('comes early in the SMS, right after who sends it', () => {
    expect(renderSms('arrival', context('package'))).toMatch(/^Harbor View: Pickup code K7M-4PX\. A package from /);
    expect(renderSms('reminder', context('letter'))).toMatch(
      /^Harbor View: Pickup code K7M-4PX\. Reminder: a letter from /,
    );
  });

  it('is not in the receipt', () => {
    const receipt = renderEmail('receipt', context('package'));
    expect(receipt.text).not.toContain('K7M-4PX');
    expect(receipt.html).not.toContain('data-pickup-code');
  });
});
