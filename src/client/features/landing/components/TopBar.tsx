import { Link } from 'wouter';
import { Brand } from './Brand';
import { CtaLink } from './CtaLink';

interface TopBarProps {
  getStartedHref: string;
  onIntent?: (href: string) => void;
}

const anchorClass =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-600 transition-colors hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500';

/** Sticky top bar: the logo, the page's anchors (from md up), Sign In and Get Started. */
export function TopBar({ getStartedHref, onIntent }: TopBarProps) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white shadow-[0_1px_2px_rgb(15_23_42/0.04)]">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:px-6">
        <Link
          href="/"
          aria-label="Pigeonhole home"
          className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <Brand />
        </Link>
        <nav aria-label="Page" className="hidden items-center gap-1 md:flex">
          <a href="#features" className={anchorClass}>
            Features
          </a>
          <a href="#who-its-for" className={anchorClass}>
            Who it’s for
          </a>
          <a href="#access" className={anchorClass}>
            Access control
          </a>
          <a href="#pricing" className={anchorClass}>
            Pricing
          </a>
        </nav>
        <div className="flex items-center gap-1 sm:gap-2">
          <CtaLink href="/login" variant="ghost" size="compact" onIntent={onIntent}>
            Sign In
          </CtaLink>
          <CtaLink href={getStartedHref} size="compact" onIntent={onIntent}>
            Get Started
          </CtaLink>
        </div>
      </div>
    </header>
  );
}
