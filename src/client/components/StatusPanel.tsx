import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

const tones = {
  success: 'bg-emerald-50 dark:bg-emerald-950/40 text-emerald-600 dark:text-emerald-400',
  warning: 'bg-amber-50 dark:bg-amber-950/40 text-amber-600 dark:text-amber-400',
  info: 'bg-indigo-50 dark:bg-indigo-950/40 text-indigo-600 dark:text-indigo-400',
};

interface StatusPanelProps {
  icon: LucideIcon;
  tone: keyof typeof tones;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}

/** A result view (sent, done, invalid) that replaces a form. */
export function StatusPanel({ icon: Icon, tone, title, children, actions }: StatusPanelProps) {
  return (
    <div className="rounded-lg border border-line bg-surface p-6 text-center shadow-sm">
      <span className={cn('mx-auto mb-4 flex size-12 items-center justify-center rounded-full', tones[tone])}>
        <Icon aria-hidden className="size-6" />
      </span>
      <h2 className="text-lg font-semibold text-fg">{title}</h2>
      <div className="mt-2 space-y-2 text-sm leading-relaxed text-fg-muted">{children}</div>
      {actions && <div className="mt-6 flex flex-col gap-2">{actions}</div>}
    </div>
  );
}
