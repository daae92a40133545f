import { cn } from '@/lib/cn';
import { LogoGlyph } from './LogoGlyph';

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
      <LogoGlyph />
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
