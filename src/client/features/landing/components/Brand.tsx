import { LogoGlyph } from '@/components/LogoGlyph';

/**
 * The Pigeonhole mark and name, as components/Logo draws them (kept here without its class
 * merging, which would bring tailwind-merge into the landing page's first load).
 */
export function Brand({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2.5">
      <BrandMark className={inverted ? 'bg-white text-indigo-600' : 'bg-indigo-600 text-white'} />
      <span className={`text-lg font-semibold tracking-tight ${inverted ? 'text-white' : 'text-slate-900'}`}>
        Pigeonhole
      </span>
    </span>
  );
}

export function BrandMark({
  className = 'bg-indigo-600 text-white',
  size = 'size-8',
}: {
  className?: string;
  size?: string;
}) {
  return (
    <span
      aria-hidden
      className={`inline-flex ${size} shrink-0 items-center justify-center rounded-lg shadow-sm ${className}`}
    >
      <LogoGlyph />
    </span>
  );
}
