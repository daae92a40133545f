import type { WriteBlock } from '@contract';
import { Lock } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { blockedNotice, type BlockedArea } from '@/lib/writeBlockText';

interface WriteBlockNoticeProps {
  block: WriteBlock;
  area: BlockedArea;
  isAdmin: boolean;
  /** For `aria-describedby` on the control it disables. */
  id?: string;
  className?: string;
}

/**
 * Why an action is paused (the server refuses it with 402), what stays available, and for admins
 * the way to a plan. Shown above the list whose "add" button it disables.
 */
export function WriteBlockNotice({ block, area, isAdmin, id, className }: WriteBlockNoticeProps) {
  return (
    <div
      id={id}
      role="status"
      className={cn(
        'flex flex-col gap-3 rounded-lg border border-red-200 dark:border-red-800 bg-red-50 dark:bg-red-950/40 px-4 py-3 text-sm text-red-900 dark:text-red-300 sm:flex-row sm:items-center',
        className,
      )}
    >
      <p className="flex min-w-0 flex-1 items-start gap-2.5">
        <Lock aria-hidden className="mt-0.5 size-4 shrink-0 text-red-600 dark:text-red-400" />
        <span>
          {blockedNotice(block, area)}
          {!isAdmin && (
            <span className="text-red-800 dark:text-red-300"> Ask an admin of your organization to choose a plan.</span>
          )}
        </span>
      </p>
      {isAdmin && (
        <Button asChild size="sm" className="shrink-0 bg-red-600 hover:bg-red-700 max-sm:w-full">
          <Link href="/checkout">Choose a plan</Link>
        </Button>
      )}
    </div>
  );
}
