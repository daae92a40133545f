import { ChangePasswordForm, NEW_PASSWORDS_DIFFER, NEW_PASSWORD_TOO_SHORT, PASSWORD_FIELDS_REQUIRED } from '@contract';

export interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Spec §5 "Password change": the form shows one problem, the first rule broken in this order. */
const RULES = [PASSWORD_FIELDS_REQUIRED, NEW_PASSWORDS_DIFFER, NEW_PASSWORD_TOO_SHORT];

/** The contract's check of the form (ChangePasswordForm), as the one problem the form shows; null when it passes. */
export function passwordProblem(values: PasswordValues): string | null {
  const result = ChangePasswordForm.safeParse(values);
  if (result.success) return null;
  const messages = result.error.issues.map((issue) => issue.message);
  return RULES.find((rule) => messages.includes(rule)) ?? messages[0] ?? null;
}
