import { describe, expect, it } from 'vitest';
import { renderEmail, renderSms, type MessageContext } from '../notifications/messages';

/** The arrival of an item that matched an expected package (decision 033), as the recipient reads it. */
const context = (expected: boolean): MessageContext => ({
  organization: { name: 'Harbor View', logoUrl: null, timezone: 'UTC' },
  recipient: { firstName: 'Amara', lastName: 'Okafor', pickupCode: 'K7M-4PX' },
  item: {
    type: 'package',
    sender: 'Outdoor Gear Co.',
    courierCompany: 'UPS',
    trackingNumber: '1Z999AA10123456784',
    location: 'Shelf A',
    arrivedAt: new Date('2026-11-28T10:00:00Z'),
    deliveredAt: null,
    collectorName: null,
    hasPhoto: false,
    expected,
    handover: null,
  },
  pickupInstructions: null,
  unsubscribeUrl: 'http://pigeonhole.test/u',
});

describe('the arrival of an expected package', () => {
  it('says the package they expected has arrived, with its tracking number', () => {
    const email = renderEmail('arrival', context(true));
    expect(email.subject).toBe('The package you expected has arrived at Harbor View');
    expect(email.text).toContain('The package you told us to expect (tracking number 1Z999AA10123456784) has arrived');
    expect(email.text).toContain('K7M-4PX');
    expect(renderSms('arrival', context(true))).toMatch(
      /^Harbor View: Pickup code K7M-4PX\. The package you expected has arrived/,
    );
  });

  it('an item no one expected reads as before', () => {
    expect(renderEmail('arrival', context(false)).subject).toBe('Your package has arrived at Harbor View');
    expect(renderSms('arrival', context(false))).toContain('A package from Outdoor Gear Co. has arrived for you');
  });
});
