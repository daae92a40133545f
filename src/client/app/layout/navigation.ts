import {
  ChartColumn,
  History,
  Inbox,
  LayoutDashboard,
  PackageOpen,
  Settings,
  Users,
  type LucideIcon,
} from 'lucide-react';

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
}

export const mainNav: NavItem[] = [
  { href: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { href: '/mail-intake', label: 'Mail Intake', icon: Inbox },
  { href: '/pending-pickups', label: 'Pending Pickups', icon: PackageOpen },
  { href: '/recipients', label: 'Recipients', icon: Users },
  { href: '/history', label: 'History', icon: History },
  { href: '/reports', label: 'Reports', icon: ChartColumn },
];

export const adminNav: NavItem[] = [{ href: '/settings', label: 'Settings', icon: Settings }];

/** `/` shows the dashboard, so it highlights the Dashboard link. */
export function isActive(item: NavItem, location: string): boolean {
  return location === item.href || (item.href === '/dashboard' && location === '/');
}
