import type { RecentActivityItem } from '@contract';
import { FileSignature, Inbox, Mail, Package, type LucideIcon } from 'lucide-react';
import { Link } from 'wouter';
import { EmptyState } from '@/components/EmptyState';
import { MailStatusBadge } from '@/components/StatusBadge';
import { Button } from '@/components/ui/button';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';
import { formatDateTime, humanize, relativeTime } from '@/lib/format';
import { RECENT_ACTIVITY_LIMIT } from '../api/recentActivity';

const typeIcons: Record<string, LucideIcon> = { package: Package, letter: Mail, certified_mail: FileSignature };

function ActivityRow({ item }: { item: RecentActivityItem }) {
  const Icon = typeIcons[item.type] ?? Package;
  const recipient = item.recipient ? `${item.recipient.firstName} ${item.recipient.lastName}` : 'Unknown Recipient';
  return (
    <li className="flex items-center gap-3 py-3.5 sm:gap-4">
      <span className="hidden size-10 shrink-0 items-center justify-center rounded-lg bg-surface-muted text-fg-muted sm:flex">
        <Icon aria-hidden className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium text-fg sm:truncate">
          {humanize(item.type)} <span className="font-normal text-fg-subtle">for</span> {recipient}
        </p>
        <p className="text-sm text-fg-subtle sm:truncate">
          From {item.sender ?? 'Unknown'} ·{' '}
          <time dateTime={item.arrivedAt} title={formatDateTime(item.arrivedAt)}>
            {relativeTime(item.arrivedAt)}
          </time>
        </p>
      </div>
      <MailStatusBadge status={item.status} />
    </li>
  );
}

interface RecentActivityListProps {
  items: RecentActivityItem[] | undefined;
  isLoading: boolean;
}

export function RecentActivityList({ items, isLoading }: RecentActivityListProps) {
  if (isLoading) {
    return (
      <SkeletonRows
        label="Loading recent activity"
        rows={RECENT_ACTIVITY_LIMIT}
        className="divide-y divide-line-subtle"
        row={() => (
          <div className="flex items-center gap-3 py-3.5 sm:gap-4">
            <Skeleton className="hidden size-10 rounded-lg sm:block" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-2/5" />
              <Skeleton className="h-3.5 w-3/5" />
            </div>
            <Skeleton className="h-5 w-16 rounded-full" />
          </div>
        )}
      />
    );
  }
  if (!items?.length) {
    return (
      <EmptyState
        icon={Inbox}
        title="No recent activity"
        action={
          <Button asChild variant="outline" size="sm">
            <Link href="/mail-intake">Log mail</Link>
          </Button>
        }
      >
        Mail you log will show up here as it arrives.
      </EmptyState>
    );
  }
  return (
    <ul className="divide-y divide-line-subtle">
      {items.map((item) => (
        <ActivityRow key={item.id} item={item} />
      ))}
    </ul>
  );
}
