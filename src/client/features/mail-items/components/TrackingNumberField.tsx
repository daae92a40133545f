import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';

interface TrackingNumberFieldProps {
  id: string;
  error?: string;
  /** What react-hook-form's `register` gave for the field. */
  registration: UseFormRegisterReturn;
  /** The courier the number looks like it belongs to, named in the hint. */
  detected: string | null;
  /** Enter without Ctrl/Cmd: a scanner finished the code (Log Mail moves on to the recipient). */
  onEnter: () => void;
}

/** Log Mail's Tracking Number, where a USB scanner types: the dialog focuses it first. */
export function TrackingNumberField({ id, error, registration, detected, onEnter }: TrackingNumberFieldProps) {
  return (
    <FormField
      id={id}
      label="Tracking Number"
      optional
      error={error}
      hint={detected ? `Looks like a ${detected} tracking number` : 'Scan or type it, then press Enter'}
    >
      <Input
        {...fieldA11y(id, error)}
        {...registration}
        data-autofocus
        autoComplete="off"
        spellCheck={false}
        maxLength={255}
        className="font-mono"
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) {
            // A scanner ends with Enter: move on instead of submitting.
            event.preventDefault();
            onEnter();
          }
        }}
      />
    </FormField>
  );
}
