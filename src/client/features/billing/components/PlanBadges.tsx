import { CheckCircle2, Sparkles } from 'lucide-react';
import { Badge } from '@/components/ui/badge';

/** The plan the table marks as the one most chosen. */
export function MostPopularBadge() {
  return (
    <Badge tone="indigo" className="gap-1">
      <Sparkles aria-hidden className="size-3" /> Most Popular
    </Badge>
  );
}

/** The plan that is chosen ("Selected") or held ("Current plan"). */
export function ChosenPlanBadge({ children }: { children: string }) {
  return (
    <Badge tone="green" className="gap-1">
      <CheckCircle2 aria-hidden className="size-3" /> {children}
    </Badge>
  );
}
