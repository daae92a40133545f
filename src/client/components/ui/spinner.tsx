import { Loader2 } from 'lucide-react';
import { cn } from '@/lib/cn';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex">
      <Loader2 aria-hidden className={cn('size-6 animate-spin text-indigo-600 dark:text-indigo-400', className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A spinner centred in the whole viewport. */
export function PageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner className="size-8" />
    </div>
  );
}
