import { CloudOff, RefreshCw } from 'lucide-react';
import { Link } from 'wouter';
import { useCurrentOrganization } from '@/lib/currentOrganization';
import { useOnline, useOutbox } from './useOutbox';

/**
 * The shell's line about this desk's connection: offline, and how many logged items wait in this
 * browser to be sent (a link to Mail Intake, where they are listed). Nothing when all is sent.
 */
export function OutboxStatus() {
  const { current } = useCurrentOrganization();
  const waiting = useOutbox(current?.id);
  const online = useOnline();
  if (online && waiting.length === 0) return null;
  const refused = waiting.filter((e) => e.refused).length;
  return (
    <div
      role="status"
      data-testid="outbox-status"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-amber-300/60 bg-amber-50 px-4 py-2 text-sm text-amber-900 sm:px-6 md:px-8 dark:border-amber-500/30 dark:bg-amber-950 dark:text-amber-100"
    >
      {!online && (
        <span className="inline-flex items-center gap-1.5 font-medium">
          <CloudOff aria-hidden className="size-4" /> Offline
        </span>
      )}
      {waiting.length > 0 && (
        <Link
          href="/mail-intake"
          className="inline-flex items-center gap-1.5 rounded underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-600"
        >
          <RefreshCw aria-hidden className="size-4" />
          <span>
            <span data-testid="outbox-count" className="font-semibold tabular-nums">
              {waiting.length}
            </span>{' '}
            {waiting.length === 1 ? 'item' : 'items'} waiting to sync
            {refused > 0 ? ` · ${refused} need${refused === 1 ? 's' : ''} attention` : ''}
          </span>
        </Link>
      )}
      {!online && (
        <span className="text-amber-800 dark:text-amber-200">
          Log Mail keeps working; items are sent when the network returns.
        </span>
      )}
    </div>
  );
}
