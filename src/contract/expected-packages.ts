import { z } from 'zod';
import { Timestamp } from './common';
import { isCarrierTrackingNumber, trackingKey } from './tracking';

/**
 * Expected packages (decision 033): tracking numbers a recipient registers on their page. The
 * desk's scan offers the recipients who expect it; an expected number never outranks what the
 * label or the clerk says, and the item is marked expected only when its recipient is one who
 * expects it (decision 047).
 */

/** Open expected packages a recipient may hold at once. */
export const EXPECTED_PACKAGES_MAX = 50;
/** An expected package that has not arrived after this many days no longer matches (and is dropped from the list). */
export const EXPECTED_PACKAGE_DAYS = 60;
export const EXPECTED_TRACKING_INVALID = 'A tracking number is 6 to 40 letters and digits';
/** A number registered must be one a carrier would issue (decision 047). */
export const EXPECTED_NOT_A_CARRIER_NUMBER =
  'This is not a tracking number UPS, FedEx, USPS, DHL, Amazon or OnTrac would issue: check it against the shipping email';
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

/** A number a recipient registers: a tracking number as typed, which its carrier's format and check digit accept. */
export const RegisteredTrackingNumber = ExpectedTrackingNumber.refine(isCarrierTrackingNumber, {
  message: EXPECTED_NOT_A_CARRIER_NUMBER,
});

/**
 * POST /api/portal/expected: a number typed, or a pasted shipping confirmation (plain text) from
 * which every tracking number is taken; an optional label ("Winter boots").
 */
const PastedText = z
  .string({ message: 'The pasted text must be text' })
  .max(50_000, 'The pasted text is too long: paste the shipping email alone');
const ExpectedLabel = z.string().trim().max(255, 'A label is at most 255 characters');

export const AddExpectedPackagesBody = z
  .object({
    trackingNumber: RegisteredTrackingNumber.optional(),
    text: PastedText.optional(),
    label: ExpectedLabel.optional(),
  })
  .refine((b) => (b.trackingNumber === undefined) !== (b.text === undefined), {
    message: 'Give a tracking number or paste a shipping confirmation (one of the two)',
  });
export type AddExpectedPackagesBody = z.infer<typeof AddExpectedPackagesBody>;

/**
 * The recipient's page's form (its fields as typed, `mode` the button chosen): a number typed or a
 * shipping email pasted, and what it is. Its output is the body above, a blank label left out.
 */
export const ExpectedPackageForm = z
  // a plain union: zod's discriminated one would be new code in every page that loads the contract
  .union([
    z.object({
      mode: z.literal('number'),
      trackingNumber: z.string().trim().min(1, 'Type the tracking number').pipe(RegisteredTrackingNumber),
      label: ExpectedLabel,
    }),
    z.object({
      mode: z.literal('paste'),
      text: PastedText.refine((text) => text.trim() !== '', 'Paste the shipping email'),
      label: ExpectedLabel,
    }),
  ])
  .transform(({ mode: _mode, label, ...body }): AddExpectedPackagesBody => ({ ...body, ...(label ? { label } : {}) }));

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

/** One recipient who expects the number (decision 047: offered to the desk, never filled in by itself). */
export const ExpectedBy = z.object({
  expectedPackageId: z.uuid(),
  recipient: z.object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    unit: z.string().nullable(),
  }),
  label: z.string().nullable(),
});
export type ExpectedBy = z.infer<typeof ExpectedBy>;

/**
 * Everyone in the organization who expects the number, oldest registration first: the Log Mail
 * dialog offers them (one, or several, none filled in) and says "also expected by" beside a
 * recipient the label or the clerk chose.
 */
export const ExpectedMatch = z.object({ items: z.array(ExpectedBy) });
export type ExpectedMatch = z.infer<typeof ExpectedMatch>;
