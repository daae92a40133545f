import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

interface SettingsCardProps {
  title: string;
  description: string;
  /** Classes of the card's content ("grid gap-4 …"). */
  contentClassName?: string;
  children: ReactNode;
}

/** One card of the settings screens: its title, a line saying what it holds, then its content. */
export function SettingsCard({ title, description, contentClassName, children }: SettingsCardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
