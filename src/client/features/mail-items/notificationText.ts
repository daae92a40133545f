import type { NotificationMessage } from '@contract';

const purposes: Record<string, string> = {
  'mail_item.created': 'Arrival',
  'mail_item.notified': 'Arrival',
  'mail_item.reminder': 'Reminder',
  'mail_item.delivered': 'Receipt',
  'mail_item.returned': 'Return notice',
  'mail_item.deleted': 'Removal notice',
  'mail_item.needs_recipient': 'Needs a recipient',
  test: 'Test',
  'staff.roster_failed': 'Roster failure',
  'staff.needs_recipient': 'Needs recipient',
};

const channelWords = {
  email: 'email',
  sms: 'SMS',
  webhook: 'webhook',
  teams: 'Teams card',
  slack: 'Slack message',
} as const;

/** 'Arrival email', 'Reminder SMS', 'Arrival Teams card', 'Webhook mail_item.delivered'. */
export function messageTitle(message: Pick<NotificationMessage, 'channel' | 'event'>): string {
  if (message.channel === 'webhook') return message.event === 'test' ? 'Webhook test' : `Webhook ${message.event}`;
  const purpose = purposes[message.event] ?? message.event.replace(/^mail_item\./, '').replace(/_/g, ' ');
  const word = channelWords[message.channel];
  return `${purpose[0]!.toUpperCase()}${purpose.slice(1)} ${word}`;
}
