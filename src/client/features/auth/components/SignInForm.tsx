import { isTwoFactorChallenge, type SignInReply } from '@contract';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toastAfterReload } from '@/components/ui/use-toast';
import { TextLink } from '@/components/TextLink';
import { login } from '../api/login';
import { applyInvitationOutcome } from '../invitationOutcome';
import { toastFailure } from '@/lib/useErrorToast';
import { useSchemaForm } from '@/lib/schemaForm';
import { useSubmission } from '@/lib/useSubmission';

interface SignInFormProps {
  /** /login insists on an email address; the /auth tab only needs the field filled (an email or a username). */
  requireEmail?: boolean;
  /** Signing in through an invitation link joins its organization too. */
  invitation?: { token: string; organizationName?: string };
  /**
   * Shown under the form with the typed address: the app puts single sign-on's offer here
   * (features compose in app/, and its code loads only when an address is typed).
   */
  addressAside?: (typed: string) => ReactNode;
}

// The code step is for accounts with two-factor on, after the right password: it loads then, out of
// the sign-in pages' first load (decision 055).
const TwoFactorStep = lazy(() => import('./TwoFactorStep').then((m) => ({ default: m.TwoFactorStep })));

/** Signed in: the welcome (or the invitation's outcome) is toasted after the app loads. */
function enterApp(reply: SignInReply, organizationName: string | undefined) {
  toastAfterReload(
    applyInvitationOutcome(reply.invitation, organizationName, {
      title: 'Welcome back!',
      description: 'You have signed in successfully.',
    }),
  );
  window.location.href = '/';
}

export function SignInForm({ requireEmail = false, invitation, addressAside }: SignInFormProps) {
  const signIn = useSubmission(login);
  const { values, field, errors, preload, submit } = useSchemaForm(
    () => import('../formSchemas').then((m) => (requireEmail ? m.LoginForm : m.LoginBody)),
    {
      username: '',
      password: '',
    },
  );
  // Set when the password was right on an account with two-factor on: the code is asked next.
  const [challenge, setChallenge] = useState<string | null>(null);

  const signedIn = (reply: SignInReply) => enterApp(reply, invitation?.organizationName);

  const onSubmit = submit(({ username, password }) =>
    signIn.run(invitation ? { username, password, invitationToken: invitation.token } : { username, password }, {
      onSuccess: (reply) => (isTwoFactorChallenge(reply) ? setChallenge(reply.challenge) : signedIn(reply)),
      onError: (err) => toastFailure('Login failed', err, 'Invalid username or password'),
    }),
  );

  if (challenge) {
    return (
      <Suspense
        fallback={
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        }
      >
        <TwoFactorStep
          challenge={challenge}
          invitationToken={invitation?.token}
          onSignedIn={signedIn}
          onRestart={() => {
            setChallenge(null);
            signIn.reset();
          }}
        />
      </Suspense>
    );
  }

  const busy = signIn.isPending || signIn.isSuccess;
  return (
    <form onSubmit={onSubmit} onFocus={preload} noValidate className="space-y-4">
      <FormField id="login-email" label="Email" error={errors.username}>
        <Input
          {...fieldA11y('login-email', errors.username)}
          type={requireEmail ? 'email' : 'text'}
          autoComplete="username"
          placeholder="you@company.com"
          {...field('username')}
        />
      </FormField>
      <FormField
        id="login-password"
        label="Password"
        error={errors.password}
        aside={<TextLink href="/forgot-password">Forgot password?</TextLink>}
      >
        <Input
          {...fieldA11y('login-password', errors.password)}
          type="password"
          autoComplete="current-password"
          {...field('password')}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign In'}
      </Button>
      {addressAside?.(values.username)}
    </form>
  );
}
