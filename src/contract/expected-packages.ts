import { z } from 'zod';
import { Timestamp } from './common';
import { trackingKey } from './tracking';

/**
 * Expected packages (decision 033): tracking numbers a recipient registers on their page, so the
 * desk's scan at intake fills them in as the item's recipient and marks the item expected.
 */

/** Open expected packages a recipient may hold at once. */
export const EXPECTED_PACKAGES_MAX = 50;
/** An expected package that has not arrived after this many days no longer matches (and is dropped from the list). */
export const EXPECTED_PACKAGE_DAYS = 60;
/** The history line of an item that matched an expected package. */
export const EXPECTED_HISTORY_NOTE = 'Expected: the recipient registered this tracking number';

export const EXPECTED_TRACKING_INVALID = 'A tracking number is 6 to 40 letters and digits';
export const EXPECTED_TAKEN =
  'Someone else in this organization already expects this tracking number. Check it, or ask the mailroom';
export const EXPECTED_ALREADY_YOURS = 'You already expect this tracking number';
export const EXPECTED_NONE_IN_TEXT =
  'No tracking number was found in the pasted text. Paste the whole shipping email, or type the number';
export const EXPECTED_TOO_MANY = `You can expect at most ${EXPECTED_PACKAGES_MAX} packages at once. Remove some that arrived elsewhere`;
export const EXPECTED_NOT_FOUND = 'Expected package not found';
export const EXPECTED_NO_MATCH = 'No one expects this tracking number';

/** A tracking number as typed: spaces, dashes and case do not matter. */
export const ExpectedTrackingNumber = z
  .string({ message: EXPECTED_TRACKING_INVALID })
  .trim()
  .max(60, EXPECTED_TRACKING_INVALID)
  .refine((n) => /^[A-Za-z0-9\s-]+$/.test(n) && trackingKey(n).length >= 6 && trackingKey(n).length <= 40, {
    message: EXPECTED_TRACKING_INVALID,
  });

/**
 * POST /api/portal/expected: a number typed, or a pasted shipping confirmation (plain text) from
 * which every tracking number is taken; an optional label ("Winter boots").
 */
export const AddExpectedPackagesBody = z
  .object({
    trackingNumber: ExpectedTrackingNumber.optional(),
    text: z
      .string({ message: 'The pasted text must be text' })
      .max(50_000, 'The pasted text is too long: paste the shipping email alone')
      .optional(),
    label: z.string().trim().max(255, 'A label is at most 255 characters').optional(),
  })
  .refine((b) => (b.trackingNumber === undefined) !== (b.text === undefined), {
    message: 'Give a tracking number or paste a shipping confirmation (one of the two)',
  });
export type AddExpectedPackagesBody = z.infer<typeof AddExpectedPackagesBody>;

export const ExpectedPackage = z.object({
  id: z.uuid(),
  trackingNumber: z.string(),
  carrier: z.string().nullable(),
  label: z.string().nullable(),
  createdAt: Timestamp,
  /** When the desk logged the item that matched it (null: still expected). */
  matchedAt: Timestamp.nullable(),
});
export type ExpectedPackage = z.infer<typeof ExpectedPackage>;

/** GET /api/portal/expected; POST answers the packages it added. */
export const ExpectedPackageList = z.object({ items: z.array(ExpectedPackage) });
export type ExpectedPackageList = z.infer<typeof ExpectedPackageList>;

/** GET /api/expected-packages/match?tracking= (the desk's Log Mail dialog). */
export const ExpectedMatchQuery = z.object({ tracking: ExpectedTrackingNumber });

/** Who expects the number: the recipient the Log Mail dialog fills in. */
export const ExpectedMatch = z.object({
  expectedPackageId: z.uuid(),
  recipient: z.object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    unit: z.string().nullable(),
  }),
  label: z.string().nullable(),
});
export type ExpectedMatch = z.infer<typeof ExpectedMatch>;
