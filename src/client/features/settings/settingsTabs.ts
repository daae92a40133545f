import type { Role } from '@contract';
import {
  Bell,
  Building2,
  ClipboardList,
  CreditCard,
  KeyRound,
  SlidersHorizontal,
  UserCircle,
  Users,
  Warehouse,
  type LucideIcon,
} from 'lucide-react';

export type SettingsTabId =
  'organization' | 'customization' | 'notifications' | 'mailrooms' | 'account' | 'users' | 'sso' | 'roster' | 'billing';

export interface SettingsTab {
  id: SettingsTabId;
  label: string;
  icon: LucideIcon;
  adminOnly: boolean;
}

/** Spec §2 "Settings", in this order; Organization, User Management, Single sign-on and Billing are for admins (§6). */
export const settingsTabs: SettingsTab[] = [
  { id: 'organization', label: 'Organization', icon: Building2, adminOnly: true },
  { id: 'customization', label: 'Customization', icon: SlidersHorizontal, adminOnly: false },
  { id: 'notifications', label: 'Notifications', icon: Bell, adminOnly: false },
  { id: 'mailrooms', label: 'Mailrooms', icon: Warehouse, adminOnly: false },
  { id: 'account', label: 'Account', icon: UserCircle, adminOnly: false },
  { id: 'users', label: 'User Management', icon: Users, adminOnly: true },
  // Issue 43: the organization's identity provider and the email domains it may sign in.
  { id: 'sso', label: 'Single sign-on', icon: KeyRound, adminOnly: true },
  // Issue 43 section 3: the resident roster fetched on a schedule (decision 061).
  { id: 'roster', label: 'Roster', icon: ClipboardList, adminOnly: true },
  { id: 'billing', label: 'Billing and Plans', icon: CreditCard, adminOnly: true },
];

export function visibleTabs(role: Role): SettingsTab[] {
  return settingsTabs.filter((tab) => role === 'admin' || !tab.adminOnly);
}

/** Admins start on Organization; a member, who cannot see it, starts on Notifications (spec §2). */
export function initialTab(role: Role): SettingsTabId {
  return role === 'admin' ? 'organization' : 'notifications';
}
