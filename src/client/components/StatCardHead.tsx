import type { LucideIcon } from 'lucide-react';
import { IconTile } from '@/components/IconTile';
import { cn } from '@/lib/cn';

/**
 * A stat card's first line: what it counts, and its tinted icon from sm up. `compact` is for
 * cards three to a row on phones, whose label steps down a size there.
 */
export function StatCardHead({
  label,
  icon,
  iconClass,
  compact = false,
}: {
  label: string;
  icon: LucideIcon;
  iconClass: string;
  compact?: boolean;
}) {
  return (
    <div className={cn('flex items-start justify-between', compact ? 'gap-2' : 'gap-3')}>
      <p className={cn('font-medium text-fg-subtle', compact ? 'text-xs sm:text-sm' : 'text-sm')}>{label}</p>
      <IconTile icon={icon} className={cn('hidden size-9 rounded-lg sm:flex', iconClass)} iconClassName="size-5" />
    </div>
  );
}
