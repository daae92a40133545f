import { detectCourier, trackingFromBarcode } from '../intake/courier/detectCourier';

/**
 * The tracking number a label's barcodes carry (issue 28, decision 042). Pure, so it is
 * unit-tested on decoded values alone; `readLabelBarcode` (labelBarcodeReader.ts) feeds it what
 * the desk's ZXing reader decodes from the photo.
 */
export interface BarcodeTracking {
  trackingNumber: string;
  carrier: string;
}

/**
 * The first decoded value that is a tracking number a carrier would issue: USPS IMpb's "420" +
 * ZIP routing prefix and GS1 separators stripped (trackingFromBarcode, the scanner path's own), then
 * the format and check digit checked by detectCourier (ts-tracking-number). A value that fails
 * the check (a product's EAN, a misread) is not a tracking number: null lets OCR find it instead.
 */
export function trackingOfBarcodes(values: readonly string[]): BarcodeTracking | null {
  for (const raw of values) {
    const trackingNumber = trackingFromBarcode(raw).replace(/\s+/g, '').toUpperCase();
    const carrier = detectCourier(trackingNumber);
    if (carrier) return { trackingNumber, carrier };
  }
  return null;
}
