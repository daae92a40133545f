import { Loader2 } from 'lucide-react';

/**
 * A spinner centred in the viewport while a page's chunk or the session check loads. The first
 * chunk's own: components/ui's spinner would bring tailwind-merge (9 KB) into every first load.
 */
export function PageLoading() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <span role="status" className="inline-flex">
        <Loader2 aria-hidden className="size-8 animate-spin text-indigo-600 dark:text-indigo-400" />
        <span className="sr-only">Loading</span>
      </span>
    </div>
  );
}
