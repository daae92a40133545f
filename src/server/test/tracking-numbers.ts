import crypto from 'node:crypto';
import { isCarrierTrackingNumber } from '../../contract';

/**
 * A UPS tracking number no other test uses, whose check digit holds: only such numbers may be
 * registered as expected (decision 047), and a test that looks for a number's every copy needs
 * its own.
 */
export function uniqueTrackingNumber(): string {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
  const shipper = Array.from(crypto.randomBytes(6), (b) => letters[b % letters.length]).join('');
  const parcel = String(crypto.randomInt(10_000_000)).padStart(7, '0');
  const body = `1Z${shipper}01${parcel}`;
  for (let digit = 0; digit <= 9; digit++) if (isCarrierTrackingNumber(`${body}${digit}`)) return `${body}${digit}`;
  throw new Error(`no check digit makes ${body} a UPS number`);
}
