import type { NotificationMessage } from '@contract';
import { useQueryClient } from '@tanstack/react-query';
import { Hash, Mail, MessageSquareText, MessagesSquare, Webhook } from 'lucide-react';
import { useEffect } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { IconTile } from '@/components/IconTile';
import { RetryLink } from '@/components/ListState';
import { TextLink } from '@/components/TextLink';
import { NotificationStatusBadge } from '@/components/StatusBadge';
import { formatDateTime, relativeTime } from '@/lib/format';
import { invalidateMailItems } from '@/lib/resources/invalidate';
import { useMailItemNotifications } from '../api/mailItemNotifications';
import { messageTitle } from '../notificationText';

const channelIcons = {
  email: Mail,
  sms: MessageSquareText,
  webhook: Webhook,
  teams: MessagesSquare,
  slack: Hash,
} as const;

function Message({ message }: { message: NotificationMessage }) {
  const Icon = channelIcons[message.channel] ?? Mail;
  const at = message.sentAt ?? message.createdAt;
  const note =
    message.status === 'skipped'
      ? message.skipReason
      : message.status === 'failed' || (message.status === 'queued' && message.attempts > 0)
        ? message.lastError
        : null;
  return (
    <li className="flex gap-2.5">
      <IconTile icon={Icon} tone="muted" className="mt-0.5 size-7 rounded-md" iconClassName="size-3.5" />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
          <span className="font-medium text-fg">{messageTitle(message)}</span>
          <NotificationStatusBadge status={message.status} />
        </p>
        <p className="text-xs text-fg-subtle">
          {message.destination && <span className="break-all">{message.destination} · </span>}
          <time dateTime={at} title={formatDateTime(at)}>
            {relativeTime(at)}
          </time>
          {message.status === 'queued' && message.attempts > 0 && message.nextAttemptAt && (
            <> · retrying {relativeTime(message.nextAttemptAt)}</>
          )}
        </p>
        {note && (
          <p
            className={
              message.status === 'skipped'
                ? 'text-xs text-amber-800 dark:text-amber-300'
                : 'text-xs break-words text-red-700 dark:text-red-300'
            }
          >
            {note}
          </p>
        )}
      </div>
    </li>
  );
}

interface NotificationsTimelineProps {
  organizationId: string;
  id: string;
  /** The item's updatedAt, once the full item has loaded (the list rows do not carry it). */
  updatedAt: string | undefined;
}

/** The item's Messages: each email, SMS and webhook sent about it, with its status (spec issue 6, item 6). */
export function NotificationsTimeline({ organizationId, id, updatedAt }: NotificationsTimelineProps) {
  const messages = useMailItemNotifications(organizationId, id, updatedAt, true);
  const queryClient = useQueryClient();
  // An accepted arrival message marks the item notified on the server: when a message was sent
  // after the item as shown last changed, the lists, timeline and dashboard fetch it again (once).
  const lastSent = messages.data?.reduce<string | null>(
    (latest, m) => (m.status === 'sent' && m.sentAt && (!latest || m.sentAt > latest) ? m.sentAt : latest),
    null,
  );
  useEffect(() => {
    if (lastSent && updatedAt && new Date(lastSent).getTime() > new Date(updatedAt).getTime()) {
      void invalidateMailItems(queryClient, organizationId);
    }
  }, [lastSent, updatedAt, queryClient, organizationId]);
  if (messages.isPending) {
    return (
      <div className="space-y-2" aria-busy>
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-4 w-1/2" />
      </div>
    );
  }
  if (messages.isError) {
    return (
      <p className="text-fg-subtle">
        Messages could not be loaded. <RetryLink onRetry={() => void messages.refetch()} />
      </p>
    );
  }
  if (messages.data.length === 0) {
    return (
      <p className="text-fg-subtle">
        Nothing sent yet. Email and SMS are set up in <TextLink href="/integrations">Integrations</TextLink>.
      </p>
    );
  }
  return (
    <ol aria-label="Messages" className="space-y-3">
      {messages.data.map((message) => (
        <Message key={message.id} message={message} />
      ))}
    </ol>
  );
}
