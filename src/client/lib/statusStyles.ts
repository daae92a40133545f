import type { NotificationMessage, SubscriptionStatus } from '@contract';

/*
 * One colour per status, wherever the status shows: Mail Intake, Pending Pickups, History and the
 * dashboard for mail items; the item timeline and the delivery log for messages; Billing and the
 * operator console for subscriptions. Pure data, so the unit test loads it without the app's aliases.
 */

/** The badge tones of components/ui/badge. */
export type StatusTone = 'neutral' | 'yellow' | 'green' | 'blue' | 'red';

export interface StatusStyle {
  label: string;
  tone: StatusTone;
}

/** The mail item statuses a badge names; any other status shows as pending (spec §2 Mail Intake). */
export type MailStatus = 'pending' | 'notified' | 'delivered' | 'returned' | 'needs_recipient';

/** Spec §2: pending yellow, delivered green, every other status blue (Returned included). */
export const MAIL_STATUS_STYLES: Record<MailStatus, StatusStyle> = {
  pending: { label: 'Pending', tone: 'yellow' },
  notified: { label: 'Notified', tone: 'blue' },
  delivered: { label: 'Delivered', tone: 'green' },
  returned: { label: 'Returned', tone: 'blue' },
  // logged without a recipient (decision 041): not waiting for anyone yet
  needs_recipient: { label: 'Needs recipient', tone: 'neutral' },
};

export function displayStatus(status: string): MailStatus {
  return Object.hasOwn(MAIL_STATUS_STYLES, status) ? (status as MailStatus) : 'pending';
}

export function mailStatusStyle(status: string): StatusStyle {
  return MAIL_STATUS_STYLES[displayStatus(status)];
}

/** Arrived more than 72 hours ago and not handed over. */
export const OVERDUE_STYLE: StatusStyle = { label: 'Overdue', tone: 'red' };

/** A notification message: queued grey, sending blue, sent green, failed red, skipped amber. */
export const NOTIFICATION_STATUS_STYLES: Record<NotificationMessage['status'], StatusStyle> = {
  queued: { label: 'Queued', tone: 'neutral' },
  sending: { label: 'Sending', tone: 'blue' },
  sent: { label: 'Sent', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  skipped: { label: 'Skipped', tone: 'yellow' },
};

export function notificationStatusStyle(status: string): StatusStyle {
  return NOTIFICATION_STATUS_STYLES[status as NotificationMessage['status']] ?? NOTIFICATION_STATUS_STYLES.queued;
}

/** A subscription: trial blue, active green, expired or cancelled red (writing is paused). */
export const SUBSCRIPTION_STATUS_STYLES: Record<SubscriptionStatus, StatusStyle> = {
  trial: { label: 'Trial', tone: 'blue' },
  active: { label: 'Active', tone: 'green' },
  expired: { label: 'Expired', tone: 'red' },
  cancelled: { label: 'Cancelled', tone: 'red' },
};
