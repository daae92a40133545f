import { getTracking } from 'ts-tracking-number';

/** ts-tracking-number's courier codes and the names the courier list uses (spec §3 defaults). */
const COURIER_NAMES: Record<string, string> = {
  ups: 'UPS',
  fedex: 'FedEx',
  usps: 'USPS',
  dhl: 'DHL',
  amazon: 'Amazon',
  ontrac: 'OnTrac',
};

/** The carrier whose format the tracking number has (UPS 1Z..., FedEx, USPS, DHL, Amazon TBA...), if any. */
export function detectCourier(trackingNumber: string): string | null {
  const code = trackingNumber.replace(/\s+/g, '').toUpperCase();
  if (code.length < 8) return null;
  const courier = getTracking(code)?.courier.code;
  return courier ? (COURIER_NAMES[courier] ?? null) : null;
}

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
