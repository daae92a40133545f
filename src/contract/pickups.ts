import { z } from 'zod';
import { MailItemSummary } from './mail-items';
import { Recipient } from './recipients';

/**
 * A recipient's pickup code (decision 031): six characters a person reads, types and says without
 * confusion (no 0/O/Q, 1/I/L, 2/Z, 5/S, 6/G, 8/B), unique in the organization. PostgreSQL draws
 * them from this alphabet (migration 0022); the desk shows them as two groups of three.
 */
export const PICKUP_CODE_ALPHABET = 'ACDEFHJKMNPRTUVWXY3479';
export const PICKUP_CODE_LENGTH = 6;

export const PICKUP_CODE_INVALID = 'A pickup code is 6 letters and digits, like K7M-4PX';
export const PICKUP_CODE_NOT_FOUND = 'No recipient has this pickup code. Check it, or search by name';
/** No name in it: the lookup says whose code it is to nobody. Their items' rows still hand over (by ID). */
export const PICKUP_CODE_INACTIVE =
  'This pickup code belongs to a deactivated recipient, so it opens nothing. Find their item by name and check their ID, or reactivate them under Recipients';
export const TOO_MANY_PICKUP_CODE_MISSES =
  'Too many pickup codes that match nobody. Wait a minute, or find the recipient by name';

/** What was typed or scanned, as the code it may be: capitals, without spaces or dashes. */
export function normalisePickupCode(input: string): string {
  return input.replace(/[\s-]+/g, '').toUpperCase();
}

export const isPickupCode = (code: string) =>
  code.length === PICKUP_CODE_LENGTH && [...code].every((c) => PICKUP_CODE_ALPHABET.includes(c));

/** The code as the desk and the recipient see it: K7M-4PX. */
export const formatPickupCode = (code: string) => `${code.slice(0, 3)}-${code.slice(3)}`;

/** A code typed, scanned by a USB scanner or read by the camera; spaces, dashes and case do not matter. */
export const PickupCode = z
  .string({ message: PICKUP_CODE_INVALID })
  .max(40, PICKUP_CODE_INVALID)
  .transform(normalisePickupCode)
  .refine(isPickupCode, PICKUP_CODE_INVALID);

/** GET /api/pickups/lookup?code= */
export const PickupLookupQuery = z.object({ code: PickupCode });

/** GET/POST /api/recipients/:id/pickup-code: the code and its QR (an SVG image of the code). */
export const RecipientPickupCode = z.object({
  recipientId: z.uuid(),
  code: z.string(),
  qrCodeSvg: z.string(),
});
export type RecipientPickupCode = z.infer<typeof RecipientPickupCode>;

/** The recipient as the hand-over shows them: who, and where they live or work. */
export const PickupRecipient = Recipient.pick({
  id: true,
  firstName: true,
  lastName: true,
  email: true,
  unit: true,
  department: true,
  isActive: true,
});

/**
 * GET /api/pickups/lookup: whose code it is and every item of theirs still waiting (pending or
 * notified), oldest first, as Pending Pickups' rows show them.
 */
export const PickupLookup = z.object({
  /** With the people the recipient allows to collect for them. */
  recipient: PickupRecipient.extend({ proxies: z.array(z.string()) }),
  items: z.array(MailItemSummary),
});
export type PickupLookup = z.infer<typeof PickupLookup>;

/** How many people one recipient may name to collect for them. */
export const PROXIES_MAX = 10;

/** Someone a recipient allows to collect for them. */
export const Proxy = z.object({ id: z.uuid(), name: z.string() });
export type Proxy = z.infer<typeof Proxy>;

export const ProxyBody = z.object({
  name: z
    .string({ message: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(255, 'Name must be less than 255 characters'),
});

export const ProxyParams = z.object({
  id: z.uuid({ message: 'Recipient not found' }),
  proxyId: z.uuid({ message: 'Proxy not found' }),
});

export const proxyExists = (name: string) => `${name} is already on the list`;
export const TOO_MANY_PROXIES = `A recipient can name at most ${PROXIES_MAX} people`;
