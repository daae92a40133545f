import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-slate-200/70', className)} {...props} />;
}

/** A list's loading state: rows of an icon, two lines of text and a trailing badge or switch. */
export function ListSkeleton({
  rows,
  iconClassName = 'size-10 rounded-lg',
  trailingClassName = 'h-5 w-16 rounded-full',
}: {
  rows: number;
  iconClassName?: string;
  trailingClassName?: string;
}) {
  return (
    <ul aria-busy className="divide-y divide-slate-100">
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} className="flex items-center gap-3 px-5 py-4">
          <Skeleton className={iconClassName} />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-2/5" />
            <Skeleton className="h-3.5 w-3/5" />
          </div>
          <Skeleton className={trailingClassName} />
        </li>
      ))}
    </ul>
  );
}
