// relative, so the unit test (no path aliases in vitest.config) can load it
import { CreateMailItemBody, UpdateMailItemBody } from '../../../contract/mail-items';
import { withTextInputs } from '../../lib/forms';
import { z } from 'zod';

const TEXT_FIELDS = ['trackingNumber', 'sender', 'courierCompany', 'description', 'collectedByStaff'] as const;

/**
 * Log New Mail: the contract's create body for the fields typed in the dialog (the recipient, the
 * photo and the storage choice are sent beside them), each optional one typed as its input's text.
 * The output is those fields of the request body: trimmed, blanks as null, the contract's limits.
 */
export const logMailForm = withTextInputs(CreateMailItemBody.pick({ type: true, ...pickAll(TEXT_FIELDS) }), [
  ...TEXT_FIELDS,
]).extend({
  /** A location id, `mailroom-<id>` for a whole mailroom, or NO_STORAGE (storageFields turns it into ids). */
  storage: z.string(),
});
export type LogMailValues = z.input<typeof logMailForm>;

const EDIT_TEXT_FIELDS = ['sender', 'trackingNumber', 'description'] as const;

/**
 * Edit Mail Item: the contract's update body for package type, status, sender, tracking number and
 * description (the recipient is picked beside them). Type and status always hold a value here.
 */
export const editMailItemForm = withTextInputs(
  UpdateMailItemBody.pick({ type: true, status: true, ...pickAll(EDIT_TEXT_FIELDS) }).required({
    type: true,
    status: true,
  }),
  [...EDIT_TEXT_FIELDS],
);
export type EditMailItemValues = z.input<typeof editMailItemForm>;

function pickAll<const K extends string>(keys: readonly K[]) {
  return Object.fromEntries(keys.map((key) => [key, true])) as { [P in K]: true };
}
