import type { RecentActivityItem } from '@contract';
import { FileSignature, Inbox, Mail, Package, type LucideIcon } from 'lucide-react';
import { EmptyState, EmptyStateLink } from '@/components/EmptyState';
import { ListState } from '@/components/ListState';
import { IconTile } from '@/components/IconTile';
import { MailStatusBadge } from '@/components/StatusBadge';
import { ListSkeleton } from '@/components/ui/skeleton';
import { formatDateTime, relativeTime } from '@/lib/format';
import { useT } from '@/lib/i18n/catalogue';
import { useItemTypeLabel } from '@/lib/i18n/itemTypes';
import { commonMessages } from '@/lib/i18n/namespaces/common';
import { dashboardMessages } from '@/lib/i18n/namespaces/dashboard';
import { RECENT_ACTIVITY_LIMIT } from '../api/recentActivity';

const typeIcons: Record<string, LucideIcon> = { package: Package, letter: Mail, certified_mail: FileSignature };

function ActivityRow({ item }: { item: RecentActivityItem }) {
  const t = useT(dashboardMessages);
  const common = useT(commonMessages);
  const typeLabel = useItemTypeLabel();
  const recipient = item.recipient
    ? `${item.recipient.firstName} ${item.recipient.lastName}`
    : common('unknownRecipient');
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
          {t.rich('recent.itemFor', {
            type: typeLabel(item.type),
            recipient,
            muted: (chunks) => <span className="font-normal text-fg-subtle">{chunks}</span>,
          })}
        </p>
        <p className="text-sm text-fg-subtle sm:truncate">
          {t('recent.from', { sender: item.sender ?? common('unknownSender') })} ·{' '}
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
  const t = useT(dashboardMessages);
  return (
    <ListState
      data={items}
      isPending={isLoading}
      skeleton={
        <ListSkeleton
          label={t('recent.loading')}
          rows={RECENT_ACTIVITY_LIMIT}
          rowClassName="gap-3 py-3.5 sm:gap-4"
          iconClassName="hidden size-10 rounded-lg sm:block"
        />
      }
      empty={
        <EmptyState
          icon={Inbox}
          title={t('recent.empty')}
          action={<EmptyStateLink href="/mail-intake">{t('recent.logMail')}</EmptyStateLink>}
        >
          {t('recent.emptyDetail')}
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
