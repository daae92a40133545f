/**
 * The contract schema of sign-in's second step, loaded when the step's form is first focused
 * (lib/schemaForm.ts). Not in `formSchemas.ts`: every sign-in form loads that chunk on focus, and
 * this one is only for accounts with two-factor on, after the right password (decision 055).
 */
// relative, so the unit test (no path aliases in vitest.config) can load it
export { LoginTwoFactorForm } from '../../../contract/two-factor';
