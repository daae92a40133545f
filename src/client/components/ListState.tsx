import { AlertCircle, RefreshCw, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { Button } from '@/components/ui/button';

interface LoadErrorProps {
  /** What failed: "The licences could not be loaded". */
  title: string;
  onRetry: () => void;
  icon?: LucideIcon;
  /** The sentence under the title; "Check your connection and try again." unless told. */
  children?: ReactNode;
  /** A page-level list's Try again is a full-size button, a card's or dialog's a small one. */
  retrySize?: 'sm' | 'default';
  /** Try again draws its circling arrow, except where a screen never did. */
  retryIcon?: boolean;
  className?: string;
}

/** The one "could not be loaded" state: what failed, why it may have, and Try again. */
export function LoadError({
  title,
  onRetry,
  icon = AlertCircle,
  children = 'Check your connection and try again.',
  retrySize = 'sm',
  retryIcon = true,
  className,
}: LoadErrorProps) {
  return (
    <EmptyState
      icon={icon}
      title={title}
      className={className}
      action={
        <Button variant="outline" size={retrySize} onClick={onRetry}>
          {retryIcon && <RefreshCw aria-hidden />} Try again
        </Button>
      }
    >
      {children}
    </EmptyState>
  );
}

/** The Try again of a one-line load error inside a panel: "Messages could not be loaded. Try again". */
export function RetryLink({ onRetry }: { onRetry: () => void }) {
  return (
    <button
      type="button"
      onClick={onRetry}
      className="font-medium text-indigo-600 dark:text-indigo-400 hover:underline"
    >
      Try again
    </button>
  );
}

/**
 * The load error inside a form (a payment step): one red line saying what failed and what to do,
 * and Try again, where a whole empty state would push the form away.
 */
export function InlineLoadError({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  return (
    <div className="space-y-2 rounded-lg border border-red-200 dark:border-red-800 bg-red-50 dark:bg-red-950/40 px-3 py-3 text-sm text-red-800 dark:text-red-300">
      <p className="flex items-start gap-2">
        <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
        {children}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RefreshCw aria-hidden /> Try again
      </Button>
    </div>
  );
}

interface ListStateProps<T> {
  /** The query's data: undefined until the first answer. */
  data: T | undefined;
  isPending: boolean;
  /** Whether the first answer failed; a list whose failure a toast tells leaves it out. */
  isError?: boolean;
  /** The skeleton rows drawn while the first answer is on its way. */
  skeleton: ReactNode;
  /**
   * The load error shown when the first answer failed (a refetch that fails keeps the rows). Left
   * out where a toast tells of the failure: such a list shows its empty state instead.
   */
  error?: LoadErrorProps;
  /** Whether the answer holds no rows; an array's length unless told. */
  isEmpty?: (data: T) => boolean;
  /** The empty state with its next step (add the first one, choose a plan, clear the search). */
  empty: ReactNode;
  /** The rows, drawn from the answer. */
  children: (data: T) => ReactNode;
  /** Puts the load error and the empty state in a frame (a card) where the rows bring their own. */
  frame?: (state: ReactNode) => ReactNode;
}

function noRows(data: unknown) {
  return Array.isArray(data) && data.length === 0;
}

/**
 * What every list shows in turn: skeleton rows while loading, a load error with Try again, an
 * empty state with the next step, and then its rows.
 */
export function ListState<T>({
  data,
  isPending,
  isError = false,
  skeleton,
  error,
  isEmpty = noRows,
  empty,
  children,
  frame = (state) => state,
}: ListStateProps<T>) {
  if (isPending) return <>{skeleton}</>;
  if (data === undefined) return <>{frame(isError && error ? <LoadError {...error} /> : empty)}</>;
  if (isEmpty(data)) return <>{frame(empty)}</>;
  return <>{children(data)}</>;
}
