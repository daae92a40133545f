import type { z } from 'zod';
import {
  CORE_STATUSES,
  type OrganizationSettings,
  type Role,
  type UpdateOrganizationSettingsBody,
} from '../../../contract';
import type { Deps } from '../../context';
import { membershipKey } from '../../caches';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { auditRepository, changedFields } from '../audit/audit.repository';
import { membersRepository } from '../organizations/members.repository';
import { ORGANIZATION_NOT_FOUND } from '../organizations/organizations.service';
import { settingsRepository, type SettingsChanges } from './settings.repository';

export type SettingsUpdateInput = z.output<typeof UpdateOrganizationSettingsBody>;

export const PACKAGE_TYPE_REQUIRED = 'Keep at least one package type';
export const CORE_STATUSES_REQUIRED = 'The statuses pending, notified and delivered cannot be removed';

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
 * /api/organizations/{id}, a non-member gets 404 and a member calling an admin action 403.
 */
export function createOrganizationSettingsService({ db, caches }: Deps) {
  async function roleIn(userId: string, organizationId: string): Promise<Role> {
    const role = await caches.memberships.getOrLoad(membershipKey(organizationId, userId), () =>
      membersRepository.findRole(db, organizationId, userId),
    );
    if (!role) throw notFound(ORGANIZATION_NOT_FOUND);
    return role;
  }

  return {
    /** Members and admins. */
    async get(userId: string, organizationId: string): Promise<OrganizationSettings> {
      await roleIn(userId, organizationId);
      return settingsRepository.get(db, organizationId);
    },

    /**
     * Admins; answers the full settings after the change. The keys that changed (before and
     * after) are audited in the same transaction.
     */
    async update(userId: string, organizationId: string, input: SettingsUpdateInput): Promise<OrganizationSettings> {
      if ((await roleIn(userId, organizationId)) !== 'admin') {
        throw forbidden('Only organization admins can do this', 'admin_required');
      }
      const changes = checkChanges(input);
      const updated = await db.transaction(async (tx) => {
        // The organization row serialises concurrent edits, so "before" is what this one replaces.
        if (!(await membersRepository.lockOrganization(tx, organizationId))) throw notFound(ORGANIZATION_NOT_FOUND);
        const current = await settingsRepository.get(tx, organizationId);
        const diff = changedFields(current, changes);
        const result = await settingsRepository.update(tx, organizationId, changes);
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
      caches.settings.delete(organizationId);
      return updated;
    },
  };
}

export type OrganizationSettingsService = ReturnType<typeof createOrganizationSettingsService>;
