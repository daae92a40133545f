import { RetryLink } from '@/components/ListState';
import { ApiError } from '@/lib/api';

/** The line shown where the full item could not be loaded: why, and a way to try again. */
export function MailItemLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const gone = error instanceof ApiError && error.status === 404;
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-300">
      {gone ? 'This mail item no longer exists.' : 'The details of this mail item could not be loaded.'}
      {!gone && (
        <>
          {' '}
          <RetryLink onRetry={onRetry} />
        </>
      )}
    </p>
  );
}
