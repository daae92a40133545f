/**
 * The contract schemas of the signed-out forms, in a chunk of their own that a form loads when it
 * is first focused (lib/schemaForm.ts): zod stays out of those pages' first load (decision 024).
 */
export {
  ForgotPasswordBody,
  InvitedRegisterForm,
  LoginBody,
  LoginForm,
  RegisterForm,
  ResetPasswordForm,
} from '@contract';
