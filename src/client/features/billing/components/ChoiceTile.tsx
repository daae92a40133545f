import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

interface ChoiceTileProps {
  name: string;
  value: string;
  checked: boolean;
  onSelect: () => void;
  /** The radio's accessible name (the tile's visible text may say more). */
  label: string;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}

/**
 * One choice of a radio group drawn as a tile: a real radio input (arrow keys move between tiles),
 * a visible radio mark, and a focus ring on the tile.
 */
export function ChoiceTile({ name, value, checked, onSelect, label, disabled, className, children }: ChoiceTileProps) {
  return (
    <label
      className={cn(
        'relative flex cursor-pointer gap-3 rounded-lg border bg-surface p-3.5 transition-colors sm:p-4',
        'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 has-[:focus-visible]:ring-offset-2',
        checked
          ? 'border-indigo-600 bg-indigo-50/50 dark:bg-indigo-950/40 ring-1 ring-indigo-600'
          : 'border-line hover:border-line-strong',
        disabled && 'cursor-not-allowed opacity-60',
        className,
      )}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={onSelect}
        aria-label={label}
        className="sr-only"
      />
      <span
        aria-hidden
        className={cn(
          'mt-0.5 flex size-4 shrink-0 items-center justify-center rounded-full border',
          checked ? 'border-indigo-600 bg-indigo-600' : 'border-line-strong bg-surface',
        )}
      >
        {checked && <span className="size-1.5 rounded-full bg-white" />}
      </span>
      <span className="min-w-0 flex-1">{children}</span>
    </label>
  );
}
