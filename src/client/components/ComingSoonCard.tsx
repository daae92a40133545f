import { CheckCircle2, type LucideIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { TickList } from './TickList';

interface ComingSoonCardProps {
  icon: LucideIcon;
  title: string;
  /** What the finished screen will let people do. */
  features: string[];
}

/** An empty state for a part of the product that ships in a later release. */
export function ComingSoonCard({ icon: Icon, title, features }: ComingSoonCardProps) {
  return (
    <Card className="px-6 py-12 text-center sm:px-10">
      <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-indigo-50 dark:bg-indigo-950/40 text-indigo-600 dark:text-indigo-400">
        <Icon aria-hidden className="size-7" />
      </span>
      <Badge tone="indigo" className="mt-5">
        Coming soon
      </Badge>
      <h2 className="mt-3 text-lg font-semibold text-fg">{title}</h2>
      <p className="mx-auto mt-1 max-w-md text-sm text-fg-subtle">
        This part of Pigeonhole arrives soon. Here is what it will do:
      </p>
      <TickList
        items={features}
        icon={CheckCircle2}
        className="mx-auto mt-6 max-w-sm space-y-2 text-left"
        itemClassName="flex items-start gap-2.5 text-sm text-fg-secondary"
        iconClassName="mt-0.5 size-4 shrink-0 text-indigo-500 dark:text-indigo-400"
      />
    </Card>
  );
}
