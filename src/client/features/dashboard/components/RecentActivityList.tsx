import type { RecentActivityItem } from '@contract';
import { FileSignature, Inbox, Mail, Package, type LucideIcon } from 'lucide-react';
import { EmptyState, EmptyStateLink } from '@/components/EmptyState';
import { ListState } from '@/components/ListState';
import { IconTile } from '@/components/IconTile';
import { MailStatusBadge } from '@/components/StatusBadge';
import { ListSkeleton } from '@/components/ui/skeleton';
import { formatDateTime, humanize, relativeTime } from '@/lib/format';
import { RECENT_ACTIVITY_LIMIT } from '../api/recentActivity';

const typeIcons: Record<string, LucideIcon> = { package: Package, letter: Mail, certified_mail: FileSignature };

function ActivityRow({ item }: { item: RecentActivityItem }) {
  const recipient = item.recipient ? `${item.recipient.firstName} ${item.recipient.lastName}` : 'Unknown Recipient';
  return (
    <li className="flex items-center gap-3 py-3.5 sm:gap-4">
      <IconTile
        icon={typeIcons[item.type] ?? Package}
        tone="muted"
        className="hidden size-10 rounded-lg sm:flex"
        iconClassName="size-5"
      />
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
  return (
    <ListState
      data={items}
      isPending={isLoading}
      skeleton={
        <ListSkeleton
          label="Loading recent activity"
          rows={RECENT_ACTIVITY_LIMIT}
          rowClassName="gap-3 py-3.5 sm:gap-4"
          iconClassName="hidden size-10 rounded-lg sm:block"
        />
      }
      empty={
        <EmptyState
          icon={Inbox}
          title="No recent activity"
          action={<EmptyStateLink href="/mail-intake">Log mail</EmptyStateLink>}
        >
          Mail you log will show up here as it arrives.
        </EmptyState>
      }
    >
      {(items) => (
        <ul className="divide-y divide-line-subtle">
          {items.map((item) => (
            <ActivityRow key={item.id} item={item} />
          ))}
        </ul>
      )}
    </ListState>
  );
}
