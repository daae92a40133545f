import type { ReactNode } from 'react';
import { TitledCard } from '@/components/ListCard';

interface SettingsCardProps {
  title: string;
  description: string;
  /** Classes of the card's content ("grid gap-4 …"). */
  contentClassName?: string;
  children: ReactNode;
}

/** One card of the settings screens: its title, a line saying what it holds, then its content. */
export function SettingsCard(props: SettingsCardProps) {
  return <TitledCard {...props} />;
}
