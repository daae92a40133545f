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

/** A list's loading state: rows of a leading tile, two lines of text and what trails them. */
export function ListSkeleton({
  label,
  rows = SKELETON_ROWS,
  className = 'divide-y divide-line-subtle',
  rowClassName = 'gap-3 px-5 py-4',
  iconClassName = 'size-10 rounded-lg',
  lineClassNames = ['h-4 w-2/5', 'mt-2 h-3.5 w-3/5'],
  trailingClassName = 'h-5 w-16 rounded-full',
}: {
  label: string;
  rows?: number;
  /** The list's rules and frame: a rule between rows unless told. */
  className?: string;
  /** A row's gap and padding. */
  rowClassName?: string;
  /** The leading tile: an icon, a photo, an avatar. */
  iconClassName?: string;
  /** The two lines of text, a name and what is known of it, with the space between them. */
  lineClassNames?: [string, string];
  /** What trails the text: a badge, a switch, a button, or several of them. */
  trailingClassName?: string | string[];
}) {
  return (
    <SkeletonRows
      label={label}
      rows={rows}
      className={className}
      row={() => (
        <div className={cn('flex items-center', rowClassName)}>
          {iconClassName && <Skeleton className={iconClassName} />}
          <div className="flex-1">
            {lineClassNames.map((line, i) => (
              <Skeleton key={i} className={line} />
            ))}
          </div>
          {[trailingClassName].flat().map((trailing, i) => (
            <Skeleton key={i} className={trailing} />
          ))}
        </div>
      )}
    />
  );
}
