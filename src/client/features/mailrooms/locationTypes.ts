import type { Location } from '@contract';
import { Archive, Inbox, Lock, Rows3, type LucideIcon } from 'lucide-react';

export const locationTypeIcons: Record<Location['type'], LucideIcon> = {
  bin: Inbox,
  shelf: Rows3,
  locker: Lock,
  cabinet: Archive,
};
