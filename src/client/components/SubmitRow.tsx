import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';

interface SubmitRowProps {
  pending: boolean;
  /** The button's label while the form is sent ("Saving…"). */
  pendingLabel: string;
  children: ReactNode;
}

/** A form's one submit button at the end of its row, off while the form is sent. */
export function SubmitRow({ pending, pendingLabel, children }: SubmitRowProps) {
  return (
    <div className="flex justify-end">
      <Button type="submit" disabled={pending}>
        {pending ? pendingLabel : children}
      </Button>
    </div>
  );
}
