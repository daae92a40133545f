import type { NotificationMessage } from '@contract';
import type { ComponentProps } from 'react';
import { Badge } from '@/components/ui/badge';
import { formatHoldDay, isHeld } from '@/lib/format';
import { useT } from '@/lib/i18n/catalogue';
import { commonMessages } from '@/lib/i18n/namespaces/common';
import {
  OVERDUE_STYLE,
  displayStatus,
  mailStatusStyle,
  notificationStatusStyle,
  NOTIFICATION_STATUS_STYLES,
} from '@/lib/statusStyles';

type BadgeProps = Omit<ComponentProps<typeof Badge>, 'tone' | 'children'>;

/*
 * The badges speak the staff screens' language (the common catalogue); the recipient's page, which
 * speaks the recipient's language, draws its own (features/portal/components/ItemCard.tsx).
 */

/** A mail item's status, the same colour on every screen (lib/statusStyles). */
export function MailStatusBadge({ status, ...props }: { status: string } & BadgeProps) {
  const t = useT(commonMessages);
  const style = mailStatusStyle(status);
  return (
    <Badge tone={style.tone} data-status={status} {...props}>
      {t(`status.${displayStatus(status)}`)}
    </Badge>
  );
}

/** Arrived more than 72 hours ago and not handed over. */
export function OverdueBadge(props: BadgeProps) {
  const t = useT(commonMessages);
  return (
    <Badge tone={OVERDUE_STYLE.tone} {...props}>
      {t('status.overdue')}
    </Badge>
  );
}

/** Held at the recipient's request (decision 035): not overdue, no reminder, until the day shown. */
export function HeldBadge({ heldUntil, ...props }: { heldUntil: string | null } & BadgeProps) {
  const t = useT(commonMessages);
  if (!isHeld(heldUntil)) return null;
  const day = formatHoldDay(heldUntil);
  return (
    <Badge tone="indigo" title={t('status.heldHint')} {...props}>
      {t('status.held', { day })}
    </Badge>
  );
}

/** The item matched a tracking number its recipient registered in advance (decision 033). */
export function ExpectedBadge(props: BadgeProps) {
  const t = useT(commonMessages);
  return (
    <Badge tone="green" title={t('status.expectedHint')} {...props}>
      {t('status.expected')}
    </Badge>
  );
}

/** A notification message: queued, sending, sent, failed or skipped. */
export function NotificationStatusBadge({ status, ...props }: { status: NotificationMessage['status'] } & BadgeProps) {
  const t = useT(commonMessages);
  const style = notificationStatusStyle(status);
  const known = Object.hasOwn(NOTIFICATION_STATUS_STYLES, status) ? status : 'queued';
  return (
    <Badge tone={style.tone} {...props}>
      {t(`message.${known}`)}
    </Badge>
  );
}
