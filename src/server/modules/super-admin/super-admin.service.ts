import type { z } from 'zod';
import {
  SUPER_ADMIN_MESSAGES,
  type PlatformLogAction,
  type PlatformLogEntry,
  type PlatformLogKind,
  type PlatformLogQuery,
  type PlatformStats,
  type SuperAdminOrganization,
  type SuperAdminOrganizationsQuery,
  type SuperAdminUser,
  type SuperAdminUsersQuery,
  type UpdatePlatformOrganizationBody,
  type UpdatePlatformUserBody,
} from '../../../contract';
import { PLATFORM_STATS_VERSION } from '../../caches';
import type { Deps } from '../../context';
import { badRequest, notFound } from '../../lib/errors';
import { iso } from '../../lib/time';
import { applyOperatorChange } from '../billing/plan-changes';
import { platformLogRepository, type PlatformLogRow } from '../audit/platform-log.repository';
import { setSuperAdminFlag } from '../auth/super-admin-flag';
import { superAdminRepository, type PlatformOrganizationRow, type PlatformUserRow } from './super-admin.repository';

/** The super admin making a call (the route has checked the flag). */
export type PlatformCaller = { userId: string; email: string };

const toOrganizationDto = (r: PlatformOrganizationRow): SuperAdminOrganization => ({
  ...r,
  createdAt: iso(r.createdAt),
  trialEndsAt: r.planType === 'trial' && r.trialEndsAt ? iso(r.trialEndsAt) : null,
});

const toUserDto = (r: PlatformUserRow): SuperAdminUser => ({ ...r, createdAt: iso(r.createdAt) });

const toLogEntryDto = (r: PlatformLogRow): PlatformLogEntry => ({
  id: r.id,
  kind: r.kind as PlatformLogKind,
  action: r.action as PlatformLogAction,
  actor: r.actorId && r.actorEmail ? { id: r.actorId, email: r.actorEmail } : null,
  targetType: r.targetType,
  targetId: r.targetId,
  targetLabel: r.targetLabel,
  before: r.before,
  after: r.after,
  details: r.details,
  createdAt: iso(r.createdAt),
});

export function createSuperAdminService({ db, caches, config }: Deps) {
  return {
    /** Reused for PLATFORM_STATS_TTL_MS (caches.ts); the lists stay live. Off with the caches. */
    stats(): Promise<PlatformStats> {
      return caches.platformStats.getOrLoad('stats', PLATFORM_STATS_VERSION, async () => {
        const { revenueCents, ...figures } = await superAdminRepository.stats(db);
        return { ...figures, revenue: revenueCents / 100 };
      });
    },

    async organizations(query: z.output<typeof SuperAdminOrganizationsQuery>) {
      const [rows, total] = await Promise.all([
        superAdminRepository.listOrganizations(db, query.search, query.limit, query.offset),
        superAdminRepository.countOrganizations(db, query.search),
      ]);
      return { items: rows.map(toOrganizationDto), total };
    },

    async users(query: z.output<typeof SuperAdminUsersQuery>) {
      const [rows, total] = await Promise.all([
        superAdminRepository.listUsers(db, query.search, query.limit, query.offset),
        superAdminRepository.countUsers(db, query.search),
      ]);
      return { items: rows.map(toUserDto), total };
    },

    async logs(query: z.output<typeof PlatformLogQuery>) {
      const filter = { kind: query.kind, search: query.search };
      const [rows, total] = await Promise.all([
        platformLogRepository.list(db, filter, query.limit, query.offset),
        platformLogRepository.count(db, filter),
      ]);
      return { items: rows.map(toLogEntryDto), total };
    },

    /**
     * Sets an organization's plan or status (a plan brings its limits: billing's
     * `applyOperatorChange`, the one owner of plan state). The organization's own audit log and
     * the platform log both record it, in the same transaction as the change.
     */
    async updateOrganization(
      caller: PlatformCaller,
      id: string,
      body: UpdatePlatformOrganizationBody,
    ): Promise<SuperAdminOrganization> {
      await db.transaction(async (tx) => {
        const change = await applyOperatorChange(tx, id, body, { userId: caller.userId });
        if (!change) throw notFound(SUPER_ADMIN_MESSAGES.organizationNotFound);
        if (Object.keys(change.after).length === 0) return;
        await platformLogRepository.record(tx, {
          kind: 'super_admin',
          action: 'organization.updated',
          actor: { id: caller.userId, email: caller.email },
          targetType: 'organization',
          targetId: id,
          targetLabel: change.name,
          before: change.before,
          after: change.after,
        });
      });
      // The operator sees their change in the figures at once here; other instances' figures may
      // be up to PLATFORM_STATS_TTL_MS old (decision 037: they have no data version of their own).
      caches.platformStats.clear();
      return toOrganizationDto((await superAdminRepository.findOrganization(db, id))!);
    },

    /** Grants or revokes the flag. Nobody revokes their own, so the platform always keeps one. */
    async updateUser(caller: PlatformCaller, id: string, body: UpdatePlatformUserBody): Promise<SuperAdminUser> {
      if (id === caller.userId && !body.isSuperAdmin) throw badRequest(SUPER_ADMIN_MESSAGES.selfRevoke, 'self_revoke');
      await db.transaction(async (tx) => {
        const actor = { id: caller.userId, email: caller.email };
        const before = await setSuperAdminFlag(tx, id, body.isSuperAdmin, { actor });
        if (!before) throw notFound(SUPER_ADMIN_MESSAGES.userNotFound);
      });
      return toUserDto((await superAdminRepository.findUser(db, id))!);
    },

    /**
     * The route's check: the flag as the database holds it now; and, where SUPER_ADMIN_TWO_FACTOR is required (production's default), two-factor on.
     */
    async checkAccess(userId: string): Promise<'allowed' | 'not_super_admin' | 'two_factor_required'> {
      const access = await superAdminRepository.superAdminAccess(db, userId);
      if (!access) return 'not_super_admin';
      if (config.superAdminTwoFactor === 'required' && !access.twoFactor) return 'two_factor_required';
      return 'allowed';
    },
  };
}

export type SuperAdminService = ReturnType<typeof createSuperAdminService>;
