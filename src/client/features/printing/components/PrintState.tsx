import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

/** What a print view shows instead of paper: loading, a failure with Try again, or nothing to print. */
export function PrintState(
  props:
    | { kind: 'loading'; label: string }
    | { kind: 'failed' | 'empty'; icon: LucideIcon; title: string; children?: ReactNode; onRetry?: () => void },
) {
  if (props.kind === 'loading') {
    return (
      <div className="flex min-h-[40dvh] items-center justify-center">
        <Spinner className="size-8" label={props.label} />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-lg rounded-xl border border-line bg-surface">
      <EmptyState
        icon={props.icon}
        title={props.title}
        action={
          props.onRetry && (
            <Button variant="outline" onClick={props.onRetry}>
              Try again
            </Button>
          )
        }
      >
        {props.children}
      </EmptyState>
    </div>
  );
}
