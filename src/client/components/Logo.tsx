import { cn } from '@/lib/cn';

/** The Pigeonhole mark: a rack of four pigeonholes. */
export function LogoMark({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span
      aria-hidden
      className={cn(
        'inline-flex size-8 shrink-0 items-center justify-center rounded-lg shadow-sm',
        // on the indigo brand panel the mark turns white
        inverted ? 'bg-white text-indigo-600' : 'bg-indigo-600 text-white',
        className,
      )}
    >
      <svg
        viewBox="0 0 24 24"
        className="size-[60%]"
        fill="none"
        stroke="currentColor"
        strokeWidth={2.2}
        strokeLinejoin="round"
      >
        <rect x="3" y="4" width="18" height="16" rx="2" />
        <path d="M3 12h18M12 4v16" />
      </svg>
    </span>
  );
}

/** The mark and the product name. */
export function Logo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <LogoMark inverted={inverted} />
      <span className={cn('text-lg font-semibold tracking-tight', inverted ? 'text-white' : 'text-fg')}>
        Pigeonhole
      </span>
    </span>
  );
}
