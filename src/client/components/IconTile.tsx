import type { LucideIcon } from 'lucide-react';
import { cn } from '@/lib/cn';

/** The tints a tile comes in; a place with a tint of its own passes it in `className`. */
const TONES = {
  muted: 'bg-surface-muted text-fg-muted',
  indigo: 'bg-indigo-50 dark:bg-indigo-950/40 text-indigo-600 dark:text-indigo-400',
  sky: 'bg-sky-50 dark:bg-sky-950/40 text-sky-600 dark:text-sky-400',
} as const;

/**
 * An icon in a tinted tile: the leading mark of a list row, a stat card or a settings section.
 * The tile's size, shape and visibility come from `className` (they differ by place), the icon's
 * size from `iconClassName`; the icon is decoration, so screen readers skip it.
 */
export function IconTile({
  icon: Icon,
  tone,
  className,
  iconClassName,
}: {
  icon: LucideIcon;
  tone?: keyof typeof TONES;
  className: string;
  iconClassName: string;
}) {
  return (
    <span className={cn('flex shrink-0 items-center justify-center', tone && TONES[tone], className)}>
      <Icon aria-hidden className={iconClassName} />
    </span>
  );
}
