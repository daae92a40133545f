import type { MyOrganization } from '@contract';
import { ChartColumn } from 'lucide-react';
import { useState } from 'react';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { EmptyState, EmptyStateLink } from '@/components/EmptyState';
import { useErrorToast } from '@/lib/useErrorToast';
import { ANALYTICS_RANGES, DEFAULT_ANALYTICS_RANGE, useAnalytics, type AnalyticsRange } from '../api/analytics';
import { BusiestHoursChart, ByCourierChart, ByTypeChart, PerDayChart } from './AnalyticsCharts';
import { FigureCards } from './FigureCards';
import { TopRecipients } from './TopRecipients';

function RangeSelect({ value, onChange }: { value: AnalyticsRange; onChange: (v: AnalyticsRange) => void }) {
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor="reports-range">Range</Label>
      <Select value={value} onValueChange={(v) => onChange(v as AnalyticsRange)}>
        <SelectTrigger id="reports-range" className="w-36">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {ANALYTICS_RANGES.map((r) => (
            <SelectItem key={r.value} value={r.value}>
              {r.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

function ChartsSkeleton() {
  return (
    <div aria-hidden className="grid gap-4 lg:grid-cols-2">
      {[0, 1, 2, 3].map((i) => (
        <Card key={i} className={`p-5 sm:p-6 ${i === 0 ? 'lg:col-span-2' : ''}`}>
          <Skeleton className="h-5 w-40" />
          <Skeleton className="mt-4 h-56 w-full sm:h-64" />
        </Card>
      ))}
    </div>
  );
}

export function ReportsView({ organization }: { organization: MyOrganization }) {
  const [range, setRange] = useState<AnalyticsRange>(DEFAULT_ANALYTICS_RANGE);
  const analytics = useAnalytics(organization.id, range);
  useErrorToast(analytics.error, 'Failed to fetch reports');
  const data = analytics.data;
  const label = ANALYTICS_RANGES.find((r) => r.value === range)!.label;

  return (
    <div className="space-y-6" aria-busy={analytics.isFetching}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <RangeSelect value={range} onChange={setRange} />
        <p aria-live="polite" className="text-sm text-fg-subtle">
          {analytics.isFetching ? 'Loading…' : `Showing ${label === 'Today' ? 'today' : label.toLowerCase()}`}
        </p>
      </div>
      <FigureCards data={data} />
      {!data ? (
        <ChartsSkeleton />
      ) : data.byType.length === 0 ? (
        <Card>
          <EmptyState
            icon={ChartColumn}
            title="No mail items in this range"
            className="py-14"
            action={<EmptyStateLink href="/mail-intake">Log mail</EmptyStateLink>}
          >
            Charts appear once mail is logged. Try a longer range, or log mail in Mail Intake.
          </EmptyState>
        </Card>
      ) : (
        <div className={`grid gap-4 lg:grid-cols-2 ${analytics.isPlaceholderData ? 'opacity-60' : ''}`}>
          <PerDayChart data={data.perDay} />
          <ByCourierChart data={data.byCourier} />
          <ByTypeChart data={data.byType} />
          <BusiestHoursChart data={data.busiestHours} />
          <div className="lg:col-span-2">
            <TopRecipients data={data.topRecipients} />
          </div>
        </div>
      )}
    </div>
  );
}
