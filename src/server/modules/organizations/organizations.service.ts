import type { Member, MyOrganization, Organization, Role } from '../../../contract';
import { TRIAL_DAYS, type CreateOrganizationBody, type UpdateOrganizationBody } from '../../../contract';
import type { Deps } from '../../context';
import { membershipKey } from '../../caches';
import type { DbOrTx } from '../../db/client';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { DAY_MS, addMs, iso, isoOrNull } from '../../lib/time';
import { membersRepository } from './members.repository';
import { organizationsRepository, type OrganizationRow } from './organizations.repository';

export function toOrganizationDto(o: OrganizationRow): Organization {
  return {
    id: o.id,
    name: o.name,
    emailDomain: o.emailDomain,
    address: o.address,
    contactName: o.contactName,
    contactEmail: o.contactEmail,
    contactPhone: o.contactPhone,
    logoUrl: o.logoUrl,
    timezone: o.timezone,
    maxUsers: o.maxUsers,
    planType: o.planType,
    subscriptionStatus: o.subscriptionStatus,
    billingEmail: o.billingEmail,
    billingCycle: o.billingCycle,
    trialStartDate: isoOrNull(o.trialStartDate),
    trialEndDate: isoOrNull(o.trialEndDate),
    maxPackagesPerMonth: o.maxPackagesPerMonth,
    currentMonthPackages: o.currentMonthPackages,
    usageResetDate: isoOrNull(o.usageResetDate),
    nextBillingDate: isoOrNull(o.nextBillingDate),
    lastPaymentDate: isoOrNull(o.lastPaymentDate),
    lastPaymentAmount: o.lastPaymentAmount,
    createdAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
  };
}

const withRole = (o: OrganizationRow, role: Role): MyOrganization => ({ ...toOrganizationDto(o), role });

/** First instant of next month (UTC): when the monthly package count starts again. */
function nextMonthStart(now: Date) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export const ORGANIZATION_NOT_FOUND = 'Organization not found';

/** The creator becomes its admin; the 7-day trial starts; default settings are written. */
export async function createOrganizationFor(
  tx: DbOrTx,
  userId: string,
  input: CreateOrganizationBody,
): Promise<MyOrganization> {
  const now = new Date();
  const org = await organizationsRepository.insert(tx, {
    name: input.name,
    address: input.address ?? null,
    contactName: input.contactName ?? null,
    contactEmail: input.contactEmail ?? null,
    contactPhone: input.contactPhone ?? null,
    timezone: input.timezone ?? 'UTC',
    trialStartDate: now,
    trialEndDate: addMs(now, TRIAL_DAYS * DAY_MS),
    usageResetDate: nextMonthStart(now),
  });
  await membersRepository.insert(tx, org.id, userId, 'admin');
  await organizationsRepository.insertDefaultSettings(tx, org.id);
  return withRole(org, 'admin');
}

export function createOrganizationsService({ db, caches }: Deps) {
  /**
   * Calls naming an organization in the path answer 404 to non-members, like any row of
   * another organization, so organization ids cannot be probed.
   */
  async function roleIn(userId: string, organizationId: string): Promise<Role> {
    const role = await caches.memberships.getOrLoad(membershipKey(organizationId, userId), () =>
      membersRepository.findRole(db, organizationId, userId),
    );
    if (!role) throw notFound(ORGANIZATION_NOT_FOUND);
    return role;
  }

  async function requireAdminOf(userId: string, organizationId: string) {
    if ((await roleIn(userId, organizationId)) !== 'admin') {
      throw forbidden('Only organization admins can do this', 'admin_required');
    }
  }

  return {
    async listMine(userId: string): Promise<MyOrganization[]> {
      const rows = await organizationsRepository.listForUser(db, userId);
      return rows.map(({ role, ...o }) => withRole(o, role));
    },

    async create(userId: string, input: CreateOrganizationBody): Promise<MyOrganization> {
      return db.transaction((tx) => createOrganizationFor(tx, userId, input));
    },

    async get(userId: string, organizationId: string): Promise<Organization> {
      await roleIn(userId, organizationId);
      const org = await organizationsRepository.findById(db, organizationId);
      if (!org) throw notFound(ORGANIZATION_NOT_FOUND);
      return toOrganizationDto(org);
    },

    async update(userId: string, organizationId: string, input: UpdateOrganizationBody): Promise<Organization> {
      await requireAdminOf(userId, organizationId);
      const org = await organizationsRepository.update(db, organizationId, input);
      if (!org) throw notFound(ORGANIZATION_NOT_FOUND);
      return toOrganizationDto(org);
    },

    async listMembers(userId: string, organizationId: string): Promise<Member[]> {
      await requireAdminOf(userId, organizationId);
      const rows = await membersRepository.list(db, organizationId);
      return rows.map((m) => ({ ...m, createdAt: iso(m.createdAt) }));
    },

    async removeMember(userId: string, organizationId: string, memberUserId: string) {
      await requireAdminOf(userId, organizationId);
      if (memberUserId === userId)
        throw badRequest('Cannot remove yourself from the organization', 'cannot_remove_self');
      await db.transaction(async (tx) => {
        const role = await membersRepository.findRole(tx, organizationId, memberUserId);
        if (!role) throw notFound('Member not found');
        if (role === 'admin' && (await membersRepository.countAdminsForUpdate(tx, organizationId)) <= 1) {
          throw conflict('The last admin of an organization cannot be removed', 'last_admin');
        }
        await membersRepository.delete(tx, organizationId, memberUserId);
      });
      caches.memberships.delete(membershipKey(organizationId, memberUserId));
    },
  };
}

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
