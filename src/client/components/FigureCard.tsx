import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';

interface FigureCardProps {
  label: string;
  icon: LucideIcon;
  /** The icon tile's colours. */
  iconClass: string;
  /** The figure and the line under it. */
  children: ReactNode;
}

/** One headline figure, named by its label (dashboard stats, analytics figures). */
export function FigureCard({ label, icon: Icon, iconClass, children }: FigureCardProps) {
  return (
    <Card role="group" aria-label={label} className="p-4 sm:p-5">
      <div className="flex items-start justify-between gap-3">
        <p className="text-sm font-medium text-fg-subtle">{label}</p>
        <span className={`hidden size-9 shrink-0 items-center justify-center rounded-lg sm:flex ${iconClass}`}>
          <Icon aria-hidden className="size-5" />
        </span>
      </div>
      {children}
    </Card>
  );
}
