import type { Member, MyOrganization, Organization, Role } from '../../../contract';
import {
  MEMBER_MESSAGES,
  ORGANIZATION_NOT_FOUND,
  TRIAL_DAYS,
  type CreateOrganizationBody,
  type UpdateOrganizationBody,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import type { DbOrTx } from '../../db/client';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { DAY_MS, addMs, iso, isoOrNull } from '../../lib/time';
import { liveChange, publishLive } from '../../lib/live-events';
import { auditRepository, changedFields } from '../audit/audit.repository';
import { membersRepository, type MemberRow } from './members.repository';
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

const MEMBER_NOT_FOUND = 'Member not found';

const toMemberDto = (m: MemberRow): Member => ({ ...m, createdAt: iso(m.createdAt) });

/** The organization fields an admin edits; their old and new values go to the audit log. */
const EDITABLE_FIELDS = [
  'name',
  'address',
  'contactName',
  'contactEmail',
  'contactPhone',
  'logoUrl',
  'timezone',
] as const;

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
  });
  await membersRepository.insert(tx, org.id, userId, 'admin');
  await organizationsRepository.insertDefaultSettings(tx, org.id);
  return withRole(org, 'admin');
}

/**
 * The calls naming an organization in the path take the caller their route has checked
 * (`requirePathOrganization`: 404 to non-members, so organization ids cannot be probed; then
 * `requireAdmin` for the admin calls).
 */
export function createOrganizationsService({ db }: Deps) {
  /**
   * Inside a membership change: locks the organization (member changes run one at a time) and
   * checks again, under the lock, that the caller is still its admin.
   */
  async function lockAsAdmin(tx: DbOrTx, userId: string, organizationId: string) {
    if (!(await membersRepository.lockOrganization(tx, organizationId))) throw notFound(ORGANIZATION_NOT_FOUND);
    const role = await membersRepository.findRole(tx, organizationId, userId);
    if (!role) throw notFound(ORGANIZATION_NOT_FOUND);
    if (role !== 'admin') throw forbidden('Only organization admins can do this', 'admin_required');
  }

  /** Demoting or removing the organization's only admin is refused: 409 `last_admin` with `message`. */
  async function refuseLastAdmin(tx: DbOrTx, organizationId: string, member: MemberRow, message: string) {
    if (member.role === 'admin' && (await membersRepository.countAdminsForUpdate(tx, organizationId)) <= 1) {
      throw conflict(message, 'last_admin');
    }
  }

  /** A change to a member in the audit log: the member by email, their role before (and after). */
  function auditMemberChange(
    tx: DbOrTx,
    { userId, organizationId }: Pick<OrgCaller, 'userId' | 'organizationId'>,
    memberUserId: string,
    member: MemberRow,
    action: 'member.role_changed' | 'member.removed',
    after?: { role: Role },
  ) {
    return auditRepository.record(tx, {
      organizationId,
      actorId: userId,
      action,
      targetType: 'member',
      targetId: memberUserId,
      targetLabel: member.user.email,
      before: { role: member.role },
      after,
    });
  }

  return {
    async listMine(userId: string): Promise<MyOrganization[]> {
      const rows = await organizationsRepository.listForUser(db, userId);
      return rows.map(({ role, ...o }) => withRole(o, role));
    },

    async create(userId: string, input: CreateOrganizationBody): Promise<MyOrganization> {
      return db.transaction((tx) => createOrganizationFor(tx, userId, input));
    },

    async get({ organizationId }: OrgCaller): Promise<Organization> {
      const org = await organizationsRepository.findById(db, organizationId);
      if (!org) throw notFound(ORGANIZATION_NOT_FOUND);
      return toOrganizationDto(org);
    },

    /** Admins; the changed fields (before and after) are audited in the same transaction. */
    async update({ userId, organizationId }: OrgCaller, input: UpdateOrganizationBody): Promise<Organization> {
      return db.transaction(async (tx) => {
        // Locked so that the audited "before" is the value this update replaces.
        if (!(await membersRepository.lockOrganization(tx, organizationId))) throw notFound(ORGANIZATION_NOT_FOUND);
        const current = await organizationsRepository.findById(tx, organizationId);
        if (!current) throw notFound(ORGANIZATION_NOT_FOUND);
        const editable = Object.fromEntries(EDITABLE_FIELDS.map((k) => [k, current[k]]));
        const changes = changedFields(editable, input as Record<string, unknown>);
        const org = await organizationsRepository.update(tx, organizationId, input);
        if (!org) throw notFound(ORGANIZATION_NOT_FOUND);
        if (changes) {
          // Its timezone decides "today" on the dashboard and the history's days.
          await auditRepository.record(tx, {
            organizationId,
            actorId: userId,
            action: 'organization.updated',
            targetType: 'organization',
            targetId: organizationId,
            targetLabel: org.name,
            ...changes,
          });
        }
        return toOrganizationDto(org);
      });
    },

    async listMembers({ organizationId }: OrgCaller): Promise<Member[]> {
      const rows = await membersRepository.list(db, organizationId);
      return rows.map(toMemberDto);
    },

    /**
     * Admins change a member's role (their own included). Demoting the last admin answers 409
     * last_admin; the organization and its admin rows are locked while checking, as for removal. The next request of
     * that member sees the new role (its cached membership is dropped).
     */
    async updateMemberRole({ userId, organizationId }: OrgCaller, memberUserId: string, role: Role): Promise<Member> {
      const member = await db.transaction(async (tx) => {
        await lockAsAdmin(tx, userId, organizationId);
        const current = await membersRepository.find(tx, organizationId, memberUserId);
        if (!current) throw notFound(MEMBER_NOT_FOUND);
        if (current.role === role) return current;
        await refuseLastAdmin(tx, organizationId, current, MEMBER_MESSAGES.lastAdminDemote);
        await membersRepository.updateRole(tx, organizationId, memberUserId, role);
        await publishLive(tx, liveChange(organizationId, 'members', [], memberUserId));
        await auditMemberChange(tx, { userId, organizationId }, memberUserId, current, 'member.role_changed', { role });
        return { ...current, role };
      });
      return toMemberDto(member);
    },

    async removeMember({ userId, organizationId }: OrgCaller, memberUserId: string) {
      if (memberUserId === userId) throw badRequest(MEMBER_MESSAGES.cannotRemoveSelf, 'cannot_remove_self');
      await db.transaction(async (tx) => {
        await lockAsAdmin(tx, userId, organizationId);
        const member = await membersRepository.find(tx, organizationId, memberUserId);
        if (!member) throw notFound(MEMBER_NOT_FOUND);
        await refuseLastAdmin(tx, organizationId, member, MEMBER_MESSAGES.lastAdminRemove);
        await membersRepository.delete(tx, organizationId, memberUserId);
        await publishLive(tx, liveChange(organizationId, 'members', [], memberUserId));
        await auditMemberChange(tx, { userId, organizationId }, memberUserId, member, 'member.removed');
      });
    },
  };
}

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
