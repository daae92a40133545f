import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

const badgeVariants = cva(
  'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap',
  {
    variants: {
      tone: {
        neutral: 'border-slate-200 bg-slate-100 text-slate-700',
        yellow: 'border-amber-200 bg-amber-50 text-amber-800',
        green: 'border-emerald-200 bg-emerald-50 text-emerald-700',
        blue: 'border-sky-200 bg-sky-50 text-sky-700',
        indigo: 'border-indigo-200 bg-indigo-50 text-indigo-700',
        red: 'border-red-200 bg-red-50 text-red-700',
      },
    },
    defaultVariants: { tone: 'neutral' },
  },
);

export function Badge({ className, tone, ...props }: ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
