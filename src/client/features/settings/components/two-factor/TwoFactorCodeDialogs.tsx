import { RegenerateRecoveryCodesBody, TWO_FACTOR_MESSAGES, TwoFactorDisableBody } from '@contract';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { SubmitRow } from '@/components/SubmitButton';
import { serverMessage } from '@/lib/api';
import { checkForm } from '@/lib/forms';
import { useNewRecoveryCodes, useTwoFactorDisable } from '../../api/twoFactor';
import { RecoveryCodes } from './RecoveryCodes';
import { CodeField, CurrentPasswordField } from './TwoFactorFields';

const FALLBACK = 'Something went wrong. Please try again.';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Turning two-factor off asks for the password and a code: a borrowed session alone cannot. */
export function TurnOffTwoFactorDialog({ open, onOpenChange }: DialogProps) {
  const disable = useTwoFactorDisable();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<{ password?: string; code?: string }>({});
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setPassword('');
      setCode('');
      setProblem({});
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(TwoFactorDisableBody, { password, code });
    setProblem(checked.errors ?? {});
    if (checked.errors) return;
    disable.mutate(checked.data, {
      onSuccess: (reply) => {
        toast({ title: 'Two-factor authentication is off', description: reply.message });
        close(false);
      },
      onError: (err) => {
        const message = serverMessage(err, FALLBACK);
        setProblem(message === TWO_FACTOR_MESSAGES.wrongPassword ? { password: message } : { code: message });
      },
    });
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !disable.isPending && close(next)}>
      <DialogContent
        title="Turn off two-factor authentication?"
        description="Signing in will need only your password. Your recovery codes stop working."
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <CurrentPasswordField
            id="two-factor-off-password"
            value={password}
            onChange={setPassword}
            error={problem.password}
          />
          <CodeField id="two-factor-off-code" value={code} onChange={setCode} error={problem.code} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={disable.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={disable.isPending}>
              {disable.isPending ? 'Turning off…' : 'Turn off'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** A fresh set of recovery codes (the old ones stop working), after a code. */
export function NewRecoveryCodesDialog({ open, onOpenChange }: DialogProps) {
  const renew = useNewRecoveryCodes();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [codes, setCodes] = useState<string[] | null>(null);
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setCode('');
      setProblem(undefined);
      setCodes(null);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(RegenerateRecoveryCodesBody, { code });
    if (checked.errors) return setProblem(checked.errors.code);
    renew.mutate(checked.data, {
      onSuccess: (reply) => setCodes(reply.recoveryCodes),
      onError: (err) => setProblem(serverMessage(err, FALLBACK)),
    });
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        title={codes ? 'Your new recovery codes' : 'New recovery codes'}
        description={codes ? undefined : 'The codes you have now stop working. Enter a code to confirm it is you.'}
      >
        {codes ? (
          <div className="space-y-5">
            <RecoveryCodes codes={codes} />
            <div className="flex justify-end">
              <Button onClick={() => close(false)}>I have saved my codes</Button>
            </div>
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <CodeField id="two-factor-renew-code" value={code} onChange={setCode} error={problem} />
            <SubmitRow pending={renew.isPending} pendingLabel="Creating…">
              Create new codes
            </SubmitRow>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
