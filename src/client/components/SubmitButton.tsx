import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';

interface SubmitButtonProps {
  pending: boolean;
  /** The button's label while the form is sent ("Saving…"). */
  pendingLabel: string;
  className?: string;
  children: ReactNode;
}

/** A form's submit button, off and relabelled while the form is sent. */
export function SubmitButton({ pending, pendingLabel, className, children }: SubmitButtonProps) {
  return (
    <Button type="submit" className={className} disabled={pending}>
      {pending ? pendingLabel : children}
    </Button>
  );
}

/** A form's one submit button at the end of its row. */
export function SubmitRow(props: Omit<SubmitButtonProps, 'className'>) {
  return (
    <div className="flex justify-end">
      <SubmitButton {...props} />
    </div>
  );
}
