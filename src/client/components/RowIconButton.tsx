import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/cn';

/** The red of a row's destructive action (Delete, Remove, Revoke), with its hover. */
export const DANGER_ACTION_CLASS =
  'text-red-600 dark:text-red-400 hover:bg-red-50 dark:hover:bg-red-950/40 hover:text-red-700 dark:hover:text-red-300';

/**
 * A row's action as an icon alone: a ghost button named for screen readers ("Delete Lobby"), its
 * word shown in a tooltip ("Delete"), red when it destroys something.
 */
export function RowIconButton({
  label,
  tooltip,
  icon: Icon,
  onClick,
  danger = false,
  disabled,
}: {
  label: string;
  tooltip: ReactNode;
  icon: LucideIcon;
  onClick: () => void;
  danger?: boolean;
  disabled?: boolean;
}) {
  return (
    <Tooltip content={tooltip} side="top">
      <Button
        variant="ghost"
        size="sm"
        aria-label={label}
        disabled={disabled}
        onClick={onClick}
        className={cn('size-8 px-0', danger ? DANGER_ACTION_CLASS : 'text-fg-subtle')}
      >
        <Icon aria-hidden />
      </Button>
    </Tooltip>
  );
}
