import type { LucideIcon } from 'lucide-react';
import { ComingSoonCard } from '@/components/ComingSoonCard';
import type { SettingsTabId } from '../settingsTabs';

const panes: Partial<Record<SettingsTabId, { title: string; features: string[] }>> = {
  notifications: {
    title: 'Notify recipients',
    features: [
      'Email and SMS notifications when mail arrives',
      'Automatic notification on intake, or one click per item',
      'Reminders for items waiting too long',
    ],
  },
  billing: {
    title: 'Plans and billing',
    features: [
      'Compare plans and choose seats',
      'Pay by card or PayPal',
      'Download invoices and manage your subscription',
    ],
  },
};

/** A settings tab that ships in a later release. */
export function ComingSoonPane({ tab, icon }: { tab: SettingsTabId; icon: LucideIcon }) {
  const pane = panes[tab];
  return pane ? <ComingSoonCard icon={icon} title={pane.title} features={pane.features} /> : null;
}
