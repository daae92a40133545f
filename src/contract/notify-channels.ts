import { z } from 'zod';

/**
 * The channels a recipient can hear on (issue 44, decision 065). Which of them an organization
 * really offers a person is the server's to say (notifications/recipient-channels.ts): email
 * where it has a mail server and they an address, SMS where it has an SMS account and they a
 * phone, Slack where it has a workspace connected, Teams where a Teams channel announces arrivals.
 */
export const NOTIFY_CHANNELS = ['email', 'sms', 'slack', 'teams'] as const;
export const NotifyChannel = z.enum(NOTIFY_CHANNELS, { message: 'Channels must be email, sms, slack or teams' });
export type NotifyChannel = z.infer<typeof NotifyChannel>;

/** What the recipient's page and the desk call each channel. */
export const NOTIFY_CHANNEL_LABELS: Record<NotifyChannel, string> = {
  email: 'Email',
  sms: 'SMS',
  slack: 'Slack',
  teams: 'Microsoft Teams',
};

export const NOTIFY_CHANNEL_MESSAGES = {
  empty: 'Choose at least one way to be told',
  notOffered: (labels: string[]) =>
    `${labels.join(', ')} ${labels.length === 1 ? 'is' : 'are'} not offered to you here: choose among the channels shown`,
} as const;

/**
 * A recipient's stored choice: null is every channel offered to them (the default, and what
 * 'both' was); otherwise the channels they picked.
 */
export const NotifyChannels = z.array(NotifyChannel).nullable();
