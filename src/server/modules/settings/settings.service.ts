import type { Deps } from '../../context';

export function createOrganizationSettingsService(deps: Deps) {
  void deps;
  return {};
}

export type OrganizationSettingsService = ReturnType<typeof createOrganizationSettingsService>;
