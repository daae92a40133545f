import type { ComponentProps, ReactNode } from 'react';
import { FormField } from '@/components/ui/form-field';
import { RecipientCombobox } from './RecipientCombobox';

type RecipientFieldProps = Omit<ComponentProps<typeof RecipientCombobox>, 'invalid' | 'describedBy'> & {
  /** Refuses typed text that names nobody; the picker is marked invalid and points at it. */
  error?: string;
  /** Shown under the picker while there is no error. */
  hint?: ReactNode;
  /** Beside the label (Log Mail's Add Recipient button). */
  action?: ReactNode;
};

/** Recipient on Log Mail and Edit Mail Item: the label, the recipient picker and its message. */
export function RecipientField({ id, error, hint, action, ...picker }: RecipientFieldProps) {
  return (
    <FormField id={id} label="Recipient" error={error} hint={hint} aside={action}>
      <RecipientCombobox id={id} {...picker} invalid={Boolean(error)} describedBy={error ? `${id}-error` : undefined} />
    </FormField>
  );
}
