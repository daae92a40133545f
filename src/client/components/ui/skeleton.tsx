import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** Spec §9: a list shows 5 skeleton rows while it loads, History 10. */
export const SKELETON_ROWS = 5;
export const HISTORY_SKELETON_ROWS = 10;

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-surface-strong/70', className)} {...props} />;
}

interface SkeletonRowsProps {
  /** Names what is loading for screen readers: "Loading mail items". */
  label: string;
  rows?: number;
  /** One row's placeholder, given its index. */
  row: (index: number) => ReactNode;
  className?: string;
}

/**
 * The loading state every list shares: `rows` placeholder rows in a busy list that screen readers
 * hear as "Loading …". Each list draws its rows the shape of its own, so nothing jumps on arrival.
 */
export function SkeletonRows({ label, rows = SKELETON_ROWS, row, className }: SkeletonRowsProps) {
  return (
    <ul aria-busy="true" aria-label={label} data-skeleton={rows} className={className}>
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} data-skeleton-row>
          {row(i)}
        </li>
      ))}
    </ul>
  );
}

/** A list's loading state: rows of an icon, two lines of text and a trailing badge or switch. */
export function ListSkeleton({
  label,
  rows = SKELETON_ROWS,
  iconClassName = 'size-10 rounded-lg',
  trailingClassName = 'h-5 w-16 rounded-full',
  className,
}: {
  label: string;
  rows?: number;
  iconClassName?: string;
  trailingClassName?: string;
  className?: string;
}) {
  return (
    <SkeletonRows
      label={label}
      rows={rows}
      className={cn('divide-y divide-line-subtle', className)}
      row={() => (
        <div className="flex items-center gap-3 px-5 py-4">
          <Skeleton className={iconClassName} />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-2/5" />
            <Skeleton className="h-3.5 w-3/5" />
          </div>
          <Skeleton className={trailingClassName} />
        </div>
      )}
    />
  );
}
