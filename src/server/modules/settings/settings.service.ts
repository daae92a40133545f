import type { z } from 'zod';
import {
  CORE_STATUSES,
  ORGANIZATION_NOT_FOUND,
  type OrganizationSettings,
  type UpdateOrganizationSettingsBody,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { badRequest, notFound } from '../../lib/errors';
import { auditRepository, changedFields } from '../audit/audit.repository';
import { membersRepository } from '../organizations/members.repository';
import { settingsRepository, type SettingsChanges } from './settings.repository';

export type SettingsUpdateInput = z.output<typeof UpdateOrganizationSettingsBody>;

const PACKAGE_TYPE_REQUIRED = 'Keep at least one package type';
const CORE_STATUSES_REQUIRED = 'The statuses pending, notified and delivered cannot be removed';

/** For other modules: the organization's settings, with the defaults written if the row is missing. */
export const getSettings = settingsRepository.get;

/** Rules the contract cannot express on its own: the lists the mail item lifecycle depends on. */
function checkChanges(input: SettingsUpdateInput): SettingsChanges {
  if (input.packageTypes !== undefined && input.packageTypes.length === 0) {
    throw badRequest(PACKAGE_TYPE_REQUIRED, 'package_type_required');
  }
  if (input.customStatuses !== undefined && CORE_STATUSES.some((s) => !input.customStatuses!.includes(s))) {
    throw badRequest(CORE_STATUSES_REQUIRED, 'core_status_required');
  }
  const changes: SettingsChanges = {};
  for (const [key, value] of Object.entries(input) as Array<[keyof SettingsChanges, unknown]>) {
    if (value !== undefined) Object.assign(changes, { [key]: value });
  }
  return changes;
}

/**
 * /api/organization-settings/{orgId} names the organization in the path: like
 * /api/organizations/{id}, its routes answer 404 to a non-member and 403 to a member calling an
 * admin action (`requirePathOrganization`, `requireAdmin`) before the caller gets here.
 */
export function createOrganizationSettingsService({ db }: Deps) {
  return {
    /** Members and admins. */
    async get({ organizationId }: OrgCaller): Promise<OrganizationSettings> {
      return settingsRepository.get(db, organizationId);
    },

    /**
     * Admins; answers the full settings after the change. The keys that changed (before and
     * after) are audited in the same transaction.
     */
    async update({ userId, organizationId }: OrgCaller, input: SettingsUpdateInput): Promise<OrganizationSettings> {
      const changes = checkChanges(input);
      return db.transaction(async (tx) => {
        // The organization row serialises concurrent edits, so "before" is what this one replaces.
        if (!(await membersRepository.lockOrganization(tx, organizationId))) throw notFound(ORGANIZATION_NOT_FOUND);
        const current = await settingsRepository.get(tx, organizationId);
        const diff = changedFields(current, changes);
        const result = await settingsRepository.update(tx, organizationId, changes);
        // Cached history pages and cards were checked against the old lists of types and statuses.
        if (diff) {
          await auditRepository.record(tx, {
            organizationId,
            actorId: userId,
            action: 'settings.updated',
            targetType: 'settings',
            targetId: organizationId,
            ...diff,
          });
        }
        return result;
      });
    },
  };
}

export type OrganizationSettingsService = ReturnType<typeof createOrganizationSettingsService>;
