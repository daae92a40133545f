import type { SignInReply } from '@contract';
import { ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { CodeInput } from '@/components/CodeInput';
import { ApiError, serverMessage } from '@/lib/api';
import { useSchemaForm } from '@/lib/schemaForm';
import { useSubmission } from '@/lib/useSubmission';
import { loginWithCode } from '../api/loginWithCode';

interface TwoFactorStepProps {
  /** The challenge of the first step (the right password). */
  challenge: string;
  invitationToken?: string;
  onSignedIn: (reply: SignInReply) => void;
  /** Back to the password (a new challenge), e.g. after this one expired. */
  onRestart: () => void;
}

/** The second step of a sign-in with two-factor on: a code from the app, or a recovery code. */
export function TwoFactorStep({ challenge, invitationToken, onSignedIn, onRestart }: TwoFactorStepProps) {
  const verify = useSubmission(loginWithCode);
  const form = useSchemaForm(() => import('../twoFactorSchema').then((m) => m.LoginTwoFactorForm), {
    mode: 'app',
    code: '',
  });
  // the server's refusal of the last code, until the next submit or a change of mode
  const [refusal, setRefusal] = useState<string | undefined>();
  const recovery = form.values.mode === 'recovery';
  const expired = verify.error instanceof ApiError && verify.error.reply?.code === 'challenge_expired';

  const checkAndVerify = form.submit(({ mode, code }) =>
    verify.run(
      { challenge, code, ...(invitationToken ? { invitationToken } : {}) },
      {
        onSuccess: onSignedIn,
        onError: (err) => {
          setRefusal(serverMessage(err, 'Something went wrong. Please try again.'));
          form.reset({ mode, code: '' });
        },
      },
    ),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    setRefusal(undefined);
    void checkAndVerify(event);
  };

  const problem = form.errors.code ?? refusal;
  const busy = verify.isPending || verify.isSuccess;
  const fieldId = 'two-factor-code';
  return (
    <form
      onSubmit={onSubmit}
      onFocus={form.preload}
      noValidate
      className="space-y-4"
      aria-labelledby="two-factor-title"
    >
      <div className="flex items-start gap-3 rounded-lg bg-indigo-50 dark:bg-indigo-950/40 p-3 text-sm text-indigo-900 dark:text-indigo-300">
        <ShieldCheck aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div>
          <h2 id="two-factor-title" className="font-semibold">
            Two-factor authentication
          </h2>
          <p>
            {recovery
              ? 'Enter one of the recovery codes you saved when you turned two-factor on. Each code works once.'
              : 'Open your authenticator app and enter the 6-digit code it shows for Pigeonhole.'}
          </p>
        </div>
      </div>
      <FormField id={fieldId} label={recovery ? 'Recovery code' : 'Authentication code'} error={problem}>
        <CodeInput
          {...fieldA11y(fieldId, problem)}
          key={form.values.mode}
          kind={recovery ? 'recovery' : 'app'}
          autoFocus
          {...form.field('code')}
          disabled={expired}
        />
      </FormField>
      {expired ? (
        <Button type="button" className="w-full" onClick={onRestart}>
          Sign in again
        </Button>
      ) : (
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? 'Verifying…' : 'Verify'}
        </Button>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <button
          type="button"
          className="rounded font-medium text-indigo-600 dark:text-indigo-400 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          onClick={() => {
            form.reset({ mode: recovery ? 'app' : 'recovery', code: '' });
            setRefusal(undefined);
          }}
        >
          {recovery ? 'Use the authenticator app instead' : 'Use a recovery code instead'}
        </button>
        <button
          type="button"
          className="rounded text-fg-muted hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          onClick={onRestart}
        >
          Back to sign in
        </button>
      </div>
    </form>
  );
}
