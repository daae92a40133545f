import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';

interface FormActionsProps {
  pending: boolean;
  onCancel: () => void;
  /** "Save Recipient", "Log Mail". */
  submitLabel: string;
  /** "Logging...": "Saving…" unless told. */
  pendingLabel?: string;
  className?: string;
  /** Drawn before the buttons (Log Mail's keyboard hint). */
  children?: ReactNode;
}

/** A dialog form's Cancel and submit buttons, both off while the form saves. */
export function FormActions({
  pending,
  onCancel,
  submitLabel,
  pendingLabel = 'Saving…',
  className = 'flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end',
  children,
}: FormActionsProps) {
  return (
    <div className={className}>
      {children}
      <Button variant="outline" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </div>
  );
}
