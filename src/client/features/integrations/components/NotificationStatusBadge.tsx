import type { NotificationMessage } from '@contract';
import { Badge } from '@/components/ui/badge';

const styles: Record<
  NotificationMessage['status'],
  { label: string; className?: string; tone?: 'neutral' | 'blue' | 'green' | 'yellow' }
> = {
  queued: { label: 'Queued', tone: 'neutral' },
  sending: { label: 'Sending', tone: 'blue' },
  sent: { label: 'Sent', tone: 'green' },
  failed: { label: 'Failed', className: 'border-red-200 bg-red-50 text-red-700' },
  skipped: { label: 'Skipped', tone: 'yellow' },
};

/** queued grey, sending blue, sent green, failed red, skipped amber. */
export function NotificationStatusBadge({ status }: { status: NotificationMessage['status'] }) {
  const style = styles[status] ?? styles.queued;
  return (
    <Badge tone={style.tone} className={style.className}>
      {style.label}
    </Badge>
  );
}
