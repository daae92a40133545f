import type { LucideIcon } from 'lucide-react';

interface TickListProps {
  items: readonly string[];
  /** The tick drawn before each item. */
  icon: LucideIcon;
  className: string;
  itemClassName: string;
  iconClassName: string;
}

/**
 * Short statements, each behind a tick: a plan's features, the landing page's promises. It merges
 * no classes, so the landing page can draw it without tailwind-merge.
 */
export function TickList({ items, icon: Icon, className, itemClassName, iconClassName }: TickListProps) {
  return (
    <ul className={className}>
      {items.map((text) => (
        <li key={text} className={itemClassName}>
          <Icon aria-hidden className={iconClassName} />
          {text}
        </li>
      ))}
    </ul>
  );
}
