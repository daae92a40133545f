import { TwoFactorEnableBody, TwoFactorSetupBody, type TwoFactorSetupReply } from '@contract';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { toast } from '@/components/ui/use-toast';
import { CodeInput } from '@/components/CodeInput';
import { SubmitRow } from '@/components/SubmitButton';
import { serverMessage } from '@/lib/api';
import { checkForm } from '@/lib/forms';
import { useTwoFactorEnable, useTwoFactorSetup } from '../../api/twoFactor';
import { RecoveryCodes } from './RecoveryCodes';
import { CurrentPasswordField } from './TwoFactorFields';

type Step = { name: 'password' } | { name: 'scan'; setup: TwoFactorSetupReply } | { name: 'codes'; codes: string[] };

const FALLBACK = 'Something went wrong. Please try again.';

/** Password, then scan and prove with a code, then the recovery codes. */
export function SetUpTwoFactorDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [step, setStep] = useState<Step>({ name: 'password' });
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setStep({ name: 'password' });
  };
  const titles: Record<Step['name'], string> = {
    password: 'Set up two-factor authentication',
    scan: 'Scan the QR code',
    codes: 'Two-factor authentication is on',
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent title={titles[step.name]}>
        {step.name === 'password' && <PasswordStep onDone={(setup) => setStep({ name: 'scan', setup })} />}
        {step.name === 'scan' && <ScanStep setup={step.setup} onDone={(codes) => setStep({ name: 'codes', codes })} />}
        {step.name === 'codes' && (
          <div className="space-y-5">
            <RecoveryCodes codes={step.codes} />
            <div className="flex justify-end">
              <Button onClick={() => close(false)}>I have saved my codes</Button>
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

function PasswordStep({ onDone }: { onDone: (setup: TwoFactorSetupReply) => void }) {
  const setup = useTwoFactorSetup();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(TwoFactorSetupBody, { password });
    if (checked.errors) return setProblem(checked.errors.password);
    setup.mutate(checked.data, { onSuccess: onDone, onError: (err) => setProblem(serverMessage(err, FALLBACK)) });
  };
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <p className="text-sm text-fg-muted">
        You will need an authenticator app on your phone, such as Google Authenticator, Microsoft Authenticator,
        1Password or Authy. First, confirm it is you.
      </p>
      <CurrentPasswordField id="two-factor-password" value={password} onChange={setPassword} error={problem} />
      <SubmitRow pending={setup.isPending} pendingLabel="Checking…">
        Continue
      </SubmitRow>
    </form>
  );
}

function ScanStep({ setup, onDone }: { setup: TwoFactorSetupReply; onDone: (codes: string[]) => void }) {
  const enable = useTwoFactorEnable();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(TwoFactorEnableBody, { code });
    if (checked.errors) return setProblem(checked.errors.code);
    enable.mutate(checked.data, {
      onSuccess: (reply) => {
        toast({ title: 'Two-factor authentication is on', description: 'Your other sessions were signed out.' });
        onDone(reply.recoveryCodes);
      },
      onError: (err) => setProblem(serverMessage(err, FALLBACK)),
    });
  };
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrCodeSvg)}`;
  const groupedSecret = setup.secret.match(/.{1,4}/g)?.join(' ') ?? setup.secret;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <img
          src={qr}
          alt="QR code to add Pigeonhole to your authenticator app"
          width={176}
          height={176}
          className="size-44 shrink-0 rounded-lg border border-line bg-white"
        />
        <div className="space-y-2 text-sm text-fg-muted">
          <p>Scan this code with your authenticator app, then enter the 6-digit code it shows.</p>
          <p>Cannot scan it? Enter this key in the app instead:</p>
          <p className="break-all rounded bg-surface-muted px-2 py-1 font-mono text-fg" data-testid="two-factor-secret">
            {groupedSecret}
          </p>
        </div>
      </div>
      <FormField id="two-factor-enable-code" label="Authentication code" error={problem}>
        <CodeInput
          {...fieldA11y('two-factor-enable-code', problem)}
          kind="app"
          autoFocus
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </FormField>
      <SubmitRow pending={enable.isPending} pendingLabel="Turning on…">
        Turn on
      </SubmitRow>
    </form>
  );
}
