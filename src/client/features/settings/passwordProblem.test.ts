import { describe, expect, it } from 'vitest';
import { passwordProblem } from './passwordProblem';

const form = (currentPassword: string, newPassword: string, confirmPassword: string) => ({
  currentPassword,
  newPassword,
  confirmPassword,
});

describe('the password change form (spec §5): one problem, the first rule broken', () => {
  it.each([
    ['a field left blank', form('', 'brand-new-pass', 'brand-new-pass'), 'Please fill in all password fields.'],
    ['the new one blank', form('old-pass', '', ''), 'Please fill in all password fields.'],
    ['the confirmation blank, the new one short', form('old-pass', 'short', ''), 'Please fill in all password fields.'],
    ['short and different', form('old-pass', 'short', 'other'), 'New passwords do not match.'],
    ['short, confirmed', form('old-pass', 'short', 'short'), 'New password must be at least 8 characters long.'],
    ['all right', form('old-pass', 'brand-new-pass', 'brand-new-pass'), null],
  ])('%s', (_, values, problem) => {
    expect(passwordProblem(values)).toBe(problem);
  });
});
