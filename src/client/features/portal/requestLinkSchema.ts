/**
 * The contract schema of the "send me a link" form (/my and a link that did not open), loaded when
 * the form is first focused (lib/schemaForm.ts). Not in `formSchemas.ts`: that chunk brings the
 * carriers' number rules for the page's expected packages, which asking for a link does not need.
 */
// relative, so the unit test (no path aliases in vitest.config) can load it
export { PortalLinkRequestBody } from '../../../contract/portal';
