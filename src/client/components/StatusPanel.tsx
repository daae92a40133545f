import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

const tones = {
  success: 'bg-emerald-50 text-emerald-600',
  warning: 'bg-amber-50 text-amber-600',
  info: 'bg-indigo-50 text-indigo-600',
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
    <div className="rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
      <span className={cn('mx-auto mb-4 flex size-12 items-center justify-center rounded-full', tones[tone])}>
        <Icon aria-hidden className="size-6" />
      </span>
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <div className="mt-2 space-y-2 text-sm leading-relaxed text-slate-600">{children}</div>
      {actions && <div className="mt-6 flex flex-col gap-2">{actions}</div>}
    </div>
  );
}
