import type { StatusTone } from '@/lib/statusStyles';

/**
 * The landing page's button and badge classes: the same look as components/ui's Button and Badge,
 * as plain strings. Those components merge classes with tailwind-merge (9 KB gzip), which would
 * take a tenth of the landing page's 100 KB budget; here every variant is spelled out instead of
 * overridden, so nothing needs merging.
 */

const buttonBase =
  'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-lg font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-offset-2 disabled:pointer-events-none disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0';

const buttonVariants = {
  primary: 'bg-indigo-600 text-white shadow-sm hover:bg-indigo-700 focus-visible:ring-indigo-500',
  outline: 'border border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-50 focus-visible:ring-indigo-500',
  ghost: 'text-slate-700 hover:bg-slate-100 focus-visible:ring-indigo-500',
  /** on the indigo closing band */
  inverted:
    'bg-white text-indigo-700 shadow-sm hover:bg-indigo-50 focus-visible:ring-white focus-visible:ring-offset-indigo-700',
  invertedGhost: 'text-white hover:bg-white/10 focus-visible:ring-white focus-visible:ring-offset-indigo-700',
} as const;

const buttonSizes = {
  default: 'h-10 px-4 text-sm',
  compact: 'h-10 px-3 text-sm sm:px-4',
  lg: 'h-11 px-6 text-base',
} as const;

export type ButtonVariant = keyof typeof buttonVariants;
export type ButtonSize = keyof typeof buttonSizes;

export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'default', extra = '') {
  return `${buttonBase} ${buttonVariants[variant]} ${buttonSizes[size]} ${extra}`.trim();
}

/** The tones of components/ui/badge, one per status tone of lib/statusStyles. */
const badgeTones: Record<StatusTone, string> = {
  neutral: 'border-slate-200 bg-slate-100 text-slate-700',
  yellow: 'border-amber-200 bg-amber-50 text-amber-800',
  blue: 'border-sky-200 bg-sky-50 text-sky-700',
  green: 'border-emerald-200 bg-emerald-50 text-emerald-700',
  red: 'border-red-200 bg-red-50 text-red-700',
};

export function badgeClass(tone: StatusTone, extra = '') {
  return `inline-flex items-center whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-medium ${badgeTones[tone]} ${extra}`.trim();
}

/** Placeholder blocks while the prices load (components/ui's Skeleton look). */
export const skeletonClass = 'animate-pulse bg-slate-200/70';

/** Whole dollars from cents, as the plan table's prices are ("$35"; "$1,234.50" with cents). */
export function dollars(cents: number): string {
  const whole = cents % 100 === 0;
  return `$${(cents / 100).toLocaleString('en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  })}`;
}
