import { describe, expect, it } from 'vitest';
import { trackingOfBarcodes } from './labelBarcode';

describe('trackingOfBarcodes', () => {
  it('reads a UPS, FedEx, DHL or Amazon Code 128 as it is', () => {
    expect(trackingOfBarcodes(['1Z999AA10123456784'])).toEqual({
      trackingNumber: '1Z999AA10123456784',
      carrier: 'UPS',
    });
    expect(trackingOfBarcodes(['61299995669352455464'])?.carrier).toBe('FedEx');
    expect(trackingOfBarcodes(['JJD0099887766'])?.carrier).toBe('DHL');
  });

  it("strips a USPS IMpb's 420 + ZIP routing prefix and its GS1 separator", () => {
    // GS1-128 as ZXing's plain text gives it: the FNC1 between the fields is a group separator.
    expect(trackingOfBarcodes(['42002110\u001d9405511899223197428490'])).toEqual({
      trackingNumber: '9405511899223197428490',
      carrier: 'USPS',
    });
    // with a ZIP+4
    expect(trackingOfBarcodes(['420021101234\u001d9405511899223197428490'])?.trackingNumber).toBe(
      '9405511899223197428490',
    );
  });

  it('skips a code whose check digit fails and a product EAN, and answers null for none', () => {
    expect(trackingOfBarcodes(['1Z999AA10123456785'])).toBeNull();
    expect(trackingOfBarcodes(['4006381333931', '1Z999AA10123456784'])?.trackingNumber).toBe('1Z999AA10123456784');
    expect(trackingOfBarcodes([])).toBeNull();
  });
});
