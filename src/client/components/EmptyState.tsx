import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

interface EmptyStateProps {
  icon: LucideIcon;
  /** What is (not) there: "No recipients yet", "The delivery log could not be loaded". */
  title: string;
  /** One sentence on why, or what happens next. */
  children?: ReactNode;
  /** The next step, when this screen offers one: a button or a link. */
  action?: ReactNode;
  className?: string;
}

/**
 * The one empty state of every list and panel: an icon, what is missing, a sentence, and the next
 * step (add the first one, clear the search, try again, or where to go instead).
 */
export function EmptyState({ icon: Icon, title, children, action, className }: EmptyStateProps) {
  return (
    <div className={cn('flex flex-col items-center px-6 py-12 text-center', className)} data-empty-state>
      <span className="mb-4 flex size-12 items-center justify-center rounded-full bg-surface-muted text-fg-subtle">
        <Icon aria-hidden className="size-6" />
      </span>
      <p className="text-base font-medium text-fg">{title}</p>
      {children && <div className="mt-1 max-w-md text-sm text-fg-subtle">{children}</div>}
      {action && <div className="mt-4 flex flex-wrap justify-center gap-2">{action}</div>}
    </div>
  );
}

/** An empty state's next step when it lives on another screen: "Log mail", "Choose a plan". */
export function EmptyStateLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Button asChild variant="outline" size="sm">
      <Link href={href}>{children}</Link>
    </Button>
  );
}
