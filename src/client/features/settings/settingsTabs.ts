import type { Role } from '@contract';
import type { ShellKey } from '@/lib/i18n/namespaces/shell';
import {
  Bell,
  Building2,
  ClipboardList,
  CreditCard,
  FolderSync,
  KeyRound,
  SlidersHorizontal,
  UserCircle,
  Users,
  Warehouse,
  type LucideIcon,
} from 'lucide-react';

export type SettingsTabId =
  | 'organization'
  | 'customization'
  | 'notifications'
  | 'mailrooms'
  | 'account'
  | 'users'
  | 'sso'
  | 'roster'
  | 'directory'
  | 'billing';

export interface SettingsTab {
  id: SettingsTabId;
  /** A key of the shell's catalogue. */
  label: ShellKey;
  icon: LucideIcon;
  adminOnly: boolean;
}

/** Spec §2 "Settings", in this order; Organization, User Management, Single sign-on and Billing are for admins (§6). */
export const settingsTabs: SettingsTab[] = [
  { id: 'organization', label: 'settings.tab.organization', icon: Building2, adminOnly: true },
  { id: 'customization', label: 'settings.tab.customization', icon: SlidersHorizontal, adminOnly: false },
  { id: 'notifications', label: 'settings.tab.notifications', icon: Bell, adminOnly: false },
  { id: 'mailrooms', label: 'settings.tab.mailrooms', icon: Warehouse, adminOnly: false },
  { id: 'account', label: 'settings.tab.account', icon: UserCircle, adminOnly: false },
  { id: 'users', label: 'settings.tab.users', icon: Users, adminOnly: true },
  // Issue 43: the organization's identity provider and the email domains it may sign in.
  { id: 'sso', label: 'settings.tab.sso', icon: KeyRound, adminOnly: true },
  // Issue 43 section 3: the resident roster fetched on a schedule (decision 061).
  { id: 'roster', label: 'settings.tab.roster', icon: ClipboardList, adminOnly: true },
  // Issue 43 §2: SCIM provisioning of recipients from the organization's directory.
  { id: 'directory', label: 'settings.tab.directory', icon: FolderSync, adminOnly: true },
  { id: 'billing', label: 'settings.tab.billing', icon: CreditCard, adminOnly: true },
];

export function visibleTabs(role: Role): SettingsTab[] {
  return settingsTabs.filter((tab) => role === 'admin' || !tab.adminOnly);
}

/** Admins start on Organization; a member, who cannot see it, starts on Notifications (spec §2). */
export function initialTab(role: Role): SettingsTabId {
  return role === 'admin' ? 'organization' : 'notifications';
}
