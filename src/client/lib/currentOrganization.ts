import { createContext, useContext } from 'react';
import type { MyOrganization } from '@contract';

export interface OrganizationContextValue {
  /** The caller's organizations, without duplicates. */
  organizations: MyOrganization[];
  /** The organization the screens act on; always the freshest copy from the list. */
  current: MyOrganization | null;
  isLoading: boolean;
  /** The list could not be loaded at all (a failed refresh keeps the last list instead). */
  loadFailed: boolean;
  retry: () => void;
  /** Switches the current organization and remembers the choice. */
  select: (organizationId: string) => void;
}

/** Provided by the organizations feature's OrganizationProvider around every signed-in screen. */
export const OrganizationContext = createContext<OrganizationContextValue | null>(null);

/** The organization the screens act on, the caller's list, and the way to switch. */
export function useCurrentOrganization() {
  const value = useContext(OrganizationContext);
  if (!value) throw new Error('useCurrentOrganization needs an OrganizationProvider');
  return value;
}
