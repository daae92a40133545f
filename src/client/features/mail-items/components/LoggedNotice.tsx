import { CheckCircle2 } from 'lucide-react';

export interface LoggedConfirmation {
  /** The recipient's name, or "no recipient". */
  name: string;
  /** Packages logged since the dialog opened. */
  count: number;
}

/** Log Mail's live confirmation of the last package saved; empty (and hidden) before the first. */
export function LoggedNotice({ logged }: { logged: LoggedConfirmation | null }) {
  return (
    <div role="status" aria-live="polite" className="empty:hidden">
      {logged && (
        <p className="flex items-center gap-2 rounded-lg border border-emerald-200 dark:border-emerald-800 bg-emerald-50 dark:bg-emerald-950/40 px-3 py-2 text-sm text-emerald-800 dark:text-emerald-300">
          <CheckCircle2 aria-hidden className="size-4 shrink-0" />
          <span>
            Logged for <span className="font-medium">{logged.name}</span> — {logged.count} this session
          </span>
        </p>
      )}
    </div>
  );
}
