/**
 * The contract schemas of the recipient's page's forms, in a chunk of their own that a form loads
 * when it is first focused (lib/schemaForm.ts): zod and the carriers' number rules stay out of the
 * page's first load, as on the sign-in pages (decision 024).
 */
// relative, so the unit test (no path aliases in vitest.config) can load it
export { ExpectedPackageForm } from '../../../contract/expected-packages';
export { ItemHoldBody } from '../../../contract/mail-items';
export { ProxyBody } from '../../../contract/pickups';
