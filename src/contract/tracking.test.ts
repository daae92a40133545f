import { describe, expect, it } from 'vitest';
import { detectCourier, extractTrackingNumbers, trackingKey } from './tracking';

describe('the match key of a tracking number', () => {
  it('ignores spaces, dashes and letter case', () => {
    expect(trackingKey(' 1z 999 aa1-0123-4567 84 ')).toBe('1Z999AA10123456784');
    expect(trackingKey('9205\t5901 6491\n7312')).toBe('9205590164917312');
    expect(trackingKey('TBA123456789000')).toBe('TBA123456789000');
  });

  it('names the carrier of a number however it is spaced', () => {
    expect(detectCourier('1z999aa1 0123 4567 84')).toBe('UPS');
    expect(detectCourier('9205 5901 6491 7312 7510 89')).toBe('USPS');
  });
});

const UPS = `From: UPS Quantum View <mcinfo@ups.com>
Subject: UPS Update: Package Scheduled for Delivery Tomorrow

Hello Ana Souza,
Your package is on the way. Scheduled Delivery: Tuesday, 12/01/2026
Shipped From: Outdoor Gear Co.
Tracking Number: 1Z 999 AA1 0123 4567 84
Number of Packages: 1
Customer service: 1-800-742-5877`;

const FEDEX = `FedEx Shipment 449044304137821: Your package is on its way
Hi. Your package is scheduled for delivery Wednesday.
TRACKING NUMBER   449044304137821
SHIP DATE  Mon 11/30/2026
Reference  PO-88231`;

const USPS = `USPS® Expected Delivery on Friday, December 4, 2026 by 9:00pm
Tracking Number: 9205 5901 6491 7312 7510 89
Your item departed our USPS facility in PHILADELPHIA PA DISTRIBUTION CENTER.`;

const AMAZON = `Your Amazon.com order #113-1234567-1234567 has shipped
Hi Ana, your package is on the way.
Arriving: Thursday
Shipped with Amazon Logistics, tracking ID TBA123456789000
Order total: $42.19`;

const DHL = `DHL Express – Your shipment is on its way
Waybill: JJD0099999999
Delivery expected between 9:00 and 18:00`;

describe('tracking numbers in a pasted shipping confirmation', () => {
  it('finds the number of each carrier, spaced in groups or not', () => {
    expect(extractTrackingNumbers(UPS)).toEqual([{ trackingNumber: '1Z999AA10123456784', carrier: 'UPS' }]);
    expect(extractTrackingNumbers(FEDEX)).toEqual([{ trackingNumber: '449044304137821', carrier: 'FedEx' }]);
    expect(extractTrackingNumbers(USPS)).toEqual([{ trackingNumber: '9205590164917312751089', carrier: 'USPS' }]);
    expect(extractTrackingNumbers(AMAZON)).toEqual([{ trackingNumber: 'TBA123456789000', carrier: 'Amazon' }]);
    expect(extractTrackingNumbers(DHL)).toEqual([{ trackingNumber: 'JJD0099999999', carrier: 'DHL' }]);
  });

  it('answers each number once, several in their order', () => {
    const text =
      `Your order ships in two boxes.\nTracking: 1Z999AA10123456784\nTracking: TBA123456789000\n` +
      `Track again: 1z999aa10123456784`;
    expect(extractTrackingNumbers(text).map((c) => c.trackingNumber)).toEqual([
      '1Z999AA10123456784',
      'TBA123456789000',
    ]);
  });

  it('keeps to numbers after "tracking" when there are some, so order and phone numbers stay out', () => {
    const text = `Order 123456789012 confirmed.\n\nTracking number: 1Z999AA10123456784`;
    expect(extractTrackingNumbers(text).map((c) => c.carrier)).toEqual(['UPS']);
  });

  it('finds nothing in text without a number', () => {
    expect(extractTrackingNumbers('Thanks for your order! We will email you when it ships.')).toEqual([]);
    expect(extractTrackingNumbers('')).toEqual([]);
  });
});
