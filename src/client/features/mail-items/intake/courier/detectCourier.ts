import { getTracking } from 'ts-tracking-number';

// The carrier formats live in the contract, shared with the server's matching (decision 033).
export { detectCourier } from '../../../../../contract/tracking';

/**
 * The organization's own spelling of a detected courier: an exact (case-insensitive) entry, else
 * one that starts with it ("Amazon" -> "Amazon Delivery"), else the detected name itself.
 */
export function matchCourier(detected: string, couriers: readonly string[]): string {
  const lower = detected.toLowerCase();
  return (
    couriers.find((c) => c.toLowerCase() === lower) ??
    couriers.find((c) => c.toLowerCase().startsWith(lower)) ??
    (lower === 'usps' ? couriers.find((c) => /postal service/i.test(c)) : undefined) ??
    detected
  );
}

// eslint-disable-next-line no-control-regex -- GS1 barcodes separate their fields with control characters
const CONTROL_CHARACTERS = /[\u0000-\u001f]+/;

/**
 * What a label's barcode holds, reduced to the tracking number: USPS GS1-128 labels carry
 * "420" + ZIP before it and group separators between fields.
 */
export function trackingFromBarcode(raw: string): string {
  const parts = raw
    .split(CONTROL_CHARACTERS)
    .map((p) => p.trim())
    .filter(Boolean);
  for (const part of [...parts].reverse()) {
    if (getTracking(part)) return part;
    const usps = /^420\d{5}(?:\d{4})?(9\d{19,33})$/.exec(part);
    if (usps?.[1] && getTracking(usps[1])) return usps[1];
  }
  return parts.join('') || raw.trim();
}
