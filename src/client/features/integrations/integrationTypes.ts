import type { Integration, IntegrationType } from '@contract';
import { Hash, KeyRound, Mail, MessageSquareText, MessagesSquare, Webhook, type LucideIcon } from 'lucide-react';

export interface IntegrationKind {
  type: IntegrationType;
  /** The catalog title, e.g. 'Email (SMTP)'. */
  title: string;
  /** The short name used in lists and buttons. */
  label: string;
  description: string;
  icon: LucideIcon;
  /** Icon tile colours. */
  tone: string;
  /** The name a new integration of this type starts with. */
  defaultName: string;
}

export const INTEGRATION_KINDS: readonly IntegrationKind[] = [
  {
    type: 'email',
    title: 'Email (SMTP)',
    label: 'Email',
    description: 'Arrival notices, reminders and pickup receipts from your own mail server.',
    icon: Mail,
    tone: 'bg-indigo-50 dark:bg-indigo-950/40 text-indigo-600 dark:text-indigo-400',
    defaultName: 'Front desk email',
  },
  {
    type: 'sms',
    title: 'SMS (Twilio)',
    label: 'SMS',
    description: 'A short text to the recipient’s phone when something arrives for them.',
    icon: MessageSquareText,
    tone: 'bg-emerald-50 dark:bg-emerald-950/40 text-emerald-600 dark:text-emerald-400',
    defaultName: 'Twilio SMS',
  },
  {
    type: 'webhook',
    title: 'Webhook',
    label: 'Webhook',
    description: 'Signed HTTP calls to another system when an item is logged, notified or handed over.',
    icon: Webhook,
    tone: 'bg-violet-50 dark:bg-violet-950/40 text-violet-600 dark:text-violet-400',
    defaultName: 'Webhook',
  },
  {
    type: 'teams',
    title: 'Microsoft Teams',
    label: 'Teams',
    description: 'A card in a mailroom’s Teams channel when something arrives or needs a recipient.',
    icon: MessagesSquare,
    tone: 'bg-sky-50 dark:bg-sky-950/40 text-sky-600 dark:text-sky-400',
    defaultName: 'Teams channel',
  },
  {
    type: 'api',
    title: 'API',
    label: 'API',
    description: 'API keys that let your other systems log items and read their status.',
    icon: KeyRound,
    tone: 'bg-amber-50 dark:bg-amber-950/40 text-amber-600 dark:text-amber-400',
    defaultName: 'API access',
  },
  {
    type: 'slack',
    title: 'Slack',
    label: 'Slack',
    description: 'A direct message to recipients in your Slack workspace, and staff alerts in a channel you pick.',
    icon: Hash,
    tone: 'bg-rose-50 dark:bg-rose-950/40 text-rose-600 dark:text-rose-400',
    defaultName: 'Slack',
  },
];

export function kindOf(type: IntegrationType): IntegrationKind {
  return INTEGRATION_KINDS.find((kind) => kind.type === type) ?? INTEGRATION_KINDS[0]!;
}

/** One line saying where an integration sends: 'smtp.example.com:587 · desk@example.com'. */
export function integrationSummary(integration: Integration): string {
  const { config } = integration;
  switch (integration.type) {
    case 'email': {
      const s = config.emailSettings;
      const server = s?.smtpHost ? `${s.smtpHost}${s.smtpPort ? `:${s.smtpPort}` : ''}` : 'Pigeonhole mail server';
      return [server, s?.fromAddress].filter(Boolean).join(' · ');
    }
    case 'sms':
      return config.smsSettings?.fromNumber ? `From ${config.smsSettings.fromNumber}` : 'No sender number yet';
    case 'webhook': {
      const events = config.webhookEvents?.length;
      return [
        config.webhookUrl || 'No URL yet',
        events ? `${events} ${events === 1 ? 'event' : 'events'}` : 'all events',
      ]
        .filter(Boolean)
        .join(' · ');
    }
    case 'teams': {
      const t = config.teamsSettings;
      return [t?.webhookHost ?? 'No URL yet', t?.mailroomId ? 'one mailroom' : 'all mailrooms'].join(' · ');
    }
    case 'api':
      return 'REST API access with keys';
    case 'slack': {
      const k = config.slackSettings;
      return [
        k?.teamName ? `Connected to ${k.teamName}` : 'Not connected',
        k?.staffChannelName ? `#${k.staffChannelName}` : k?.staffChannelId ? k.staffChannelId : 'no staff channel',
      ].join(' · ');
    }
  }
}
