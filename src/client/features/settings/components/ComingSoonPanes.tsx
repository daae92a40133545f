import type { LucideIcon } from 'lucide-react';
import { ComingSoonCard } from '@/components/ComingSoonCard';
import type { SettingsTabId } from '../settingsTabs';

const panes: Partial<Record<SettingsTabId, { title: string; features: string[] }>> = {
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
