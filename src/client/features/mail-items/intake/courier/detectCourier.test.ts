import { describe, expect, it } from 'vitest';
import { detectCourier, matchCourier, trackingFromBarcode } from './detectCourier';

describe('courier detection from the tracking number format', () => {
  it('names the carrier of well-formed numbers', () => {
    expect(detectCourier('1Z999AA10123456784')).toBe('UPS');
    expect(detectCourier(' 1z999aa10123456784 ')).toBe('UPS');
    expect(detectCourier('TBA123456789000')).toBe('Amazon');
    expect(detectCourier('449044304137821')).toBe('FedEx');
    expect(detectCourier('JJD0099999999')).toBe('DHL');
  });

  it('detects nothing for short or unknown codes', () => {
    expect(detectCourier('')).toBeNull();
    expect(detectCourier('PH-KB-0001')).toBeNull();
    expect(detectCourier('1Z99')).toBeNull();
  });

  it("uses the organization's spelling of the courier", () => {
    expect(matchCourier('UPS', ['FedEx', 'ups', 'Other'])).toBe('ups');
    expect(matchCourier('Amazon', ['FedEx', 'Amazon Delivery'])).toBe('Amazon Delivery');
    expect(matchCourier('USPS', ['United States Postal Service'])).toBe('United States Postal Service');
    expect(matchCourier('OnTrac', ['FedEx'])).toBe('OnTrac');
  });
});

describe('tracking number from a decoded barcode', () => {
  it('keeps a plain code and drops GS1 routing fields', () => {
    expect(trackingFromBarcode('1Z999AA10123456784')).toBe('1Z999AA10123456784');
    expect(trackingFromBarcode('42097201\u001d1Z999AA10123456784')).toBe('1Z999AA10123456784');
    expect(trackingFromBarcode('ABC-123')).toBe('ABC-123');
  });
});
