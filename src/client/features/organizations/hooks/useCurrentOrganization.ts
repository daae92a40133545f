import { useContext } from 'react';
import { OrganizationContext } from '../organizationContext';

export function useCurrentOrganization() {
  const value = useContext(OrganizationContext);
  if (!value) throw new Error('useCurrentOrganization needs an OrganizationProvider');
  return value;
}
