import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { CodeInput } from '@/components/CodeInput';

interface TwoFactorFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

/** The password that proves it is you before two-factor is turned on or off; it takes the focus. */
export function CurrentPasswordField({ id, value, onChange, error }: TwoFactorFieldProps) {
  return (
    <FormField id={id} label="Current Password" error={error}>
      <Input
        {...fieldA11y(id, error)}
        type="password"
        autoComplete="current-password"
        autoFocus
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </FormField>
  );
}

/** A code from the authenticator app, or one of the recovery codes. */
export function CodeField({ id, value, onChange, error }: TwoFactorFieldProps) {
  return (
    <FormField id={id} label="Code from your app, or a recovery code" error={error}>
      <CodeInput {...fieldA11y(id, error)} kind="either" value={value} onChange={(e) => onChange(e.target.value)} />
    </FormField>
  );
}
