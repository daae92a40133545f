import type { NotificationMessage } from '@contract';
import type { ComponentProps } from 'react';
import { Badge } from '@/components/ui/badge';
import { formatHoldDay, isHeld } from '@/lib/format';
import { OVERDUE_STYLE, mailStatusStyle, notificationStatusStyle } from '@/lib/statusStyles';

type BadgeProps = Omit<ComponentProps<typeof Badge>, 'tone' | 'children'>;

/** A mail item's status, the same colour on every screen (lib/statusStyles). */
export function MailStatusBadge({ status, ...props }: { status: string } & BadgeProps) {
  const style = mailStatusStyle(status);
  return (
    <Badge tone={style.tone} data-status={status} {...props}>
      {style.label}
    </Badge>
  );
}

/** Arrived more than 72 hours ago and not handed over. */
export function OverdueBadge(props: BadgeProps) {
  return (
    <Badge tone={OVERDUE_STYLE.tone} {...props}>
      {OVERDUE_STYLE.label}
    </Badge>
  );
}

/** Held at the recipient's request (decision 035): not overdue, no reminder, until the day shown. */
export function HeldBadge({ heldUntil, ...props }: { heldUntil: string | null } & BadgeProps) {
  if (!isHeld(heldUntil)) return null;
  return (
    <Badge tone="indigo" title="The recipient asked the desk to keep it until then" {...props}>
      Held until {formatHoldDay(heldUntil)}
    </Badge>
  );
}

/** The item matched a tracking number its recipient registered in advance (decision 033). */
export function ExpectedBadge(props: BadgeProps) {
  return (
    <Badge tone="green" title="The recipient registered this tracking number in advance" {...props}>
      Expected
    </Badge>
  );
}

/** A notification message: queued, sending, sent, failed or skipped. */
export function NotificationStatusBadge({ status, ...props }: { status: NotificationMessage['status'] } & BadgeProps) {
  const style = notificationStatusStyle(status);
  return (
    <Badge tone={style.tone} {...props}>
      {style.label}
    </Badge>
  );
}
