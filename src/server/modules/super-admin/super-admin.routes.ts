import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  Id,
  PlatformLogEntry,
  PlatformLogQuery,
  PlatformStats,
  SUPER_ADMIN_MESSAGES,
  SuperAdminOrganization,
  SuperAdminOrganizationsQuery,
  SuperAdminUser,
  SuperAdminDomain,
  SuperAdminDomainParams,
  SuperAdminUsersQuery,
  TOTAL_COUNT_HEADER,
  UpdatePlatformOrganizationBody,
  UpdatePlatformUserBody,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies, sendItemsPage } from '../../http';
import { forbidden } from '../../lib/errors';
import { authOf } from '../../plugins/session';
import type { DomainsService } from '../domains/domains.service';
import type { PlatformCaller, SuperAdminService } from './super-admin.service';

const OrgParams = z.object({ orgId: Id });
const UserParams = z.object({ userId: Id });

/**
 * The platform operator's calls: HTTP only. Every one needs a signed-in super admin (401 signed
 * out, 403 otherwise, API keys included: they act inside one organization only). Nothing here
 * lets a super admin into an organization's own calls: those still check membership.
 */
export function superAdminRoutes(app: App, superAdmin: SuperAdminService, domains: DomainsService) {
  const tags = ['Super admin'];

  async function requireSuperAdmin(request: FastifyRequest) {
    const auth = authOf(request);
    const access = auth.apiKey ? 'not_super_admin' : await superAdmin.checkAccess(auth.user.id);
    if (access === 'not_super_admin') throw forbidden(SUPER_ADMIN_MESSAGES.forbidden, 'super_admin_required');
    if (access === 'two_factor_required') {
      throw forbidden(SUPER_ADMIN_MESSAGES.twoFactorRequired, 'two_factor_required');
    }
  }
  const guard = [app.authenticate, requireSuperAdmin];
  const callerOf = (request: FastifyRequest): PlatformCaller => {
    const { user } = authOf(request);
    return { userId: user.id, email: user.email };
  };

  app.get('/api/super-admin/stats', {
    schema: {
      tags,
      summary: 'Platform statistics: organizations, users, trials, paid subscriptions, packages this month, revenue',
      response: { 200: PlatformStats, ...errorReplies(401, 403) },
    },
    preValidation: guard,
    handler: async () => superAdmin.stats(),
  });

  app.get('/api/super-admin/organizations', {
    schema: {
      tags,
      summary: `All organizations, newest first, searched by name or domain; the total is in ${TOTAL_COUNT_HEADER}`,
      querystring: SuperAdminOrganizationsQuery,
      response: { 200: z.array(SuperAdminOrganization), ...errorReplies(400, 401, 403) },
    },
    preValidation: guard,
    handler: async (request, reply) => sendItemsPage(reply, await superAdmin.organizations(request.query)),
  });

  app.patch('/api/super-admin/organizations/:orgId', {
    schema: {
      tags,
      summary: "Change an organization's plan or subscription status (a plan applies its limits)",
      params: OrgParams,
      body: UpdatePlatformOrganizationBody,
      response: { 200: SuperAdminOrganization, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guard,
    handler: async (request) => superAdmin.updateOrganization(callerOf(request), request.params.orgId, request.body),
  });

  app.get('/api/super-admin/users', {
    schema: {
      tags,
      summary: `All users, newest first, searched by email, username or full name; the total is in ${TOTAL_COUNT_HEADER}`,
      querystring: SuperAdminUsersQuery,
      response: { 200: z.array(SuperAdminUser), ...errorReplies(400, 401, 403) },
    },
    preValidation: guard,
    handler: async (request, reply) => sendItemsPage(reply, await superAdmin.users(request.query)),
  });

  app.patch('/api/super-admin/users/:userId', {
    schema: {
      tags,
      summary: 'Grant or revoke super admin (not one’s own)',
      params: UserParams,
      body: UpdatePlatformUserBody,
      response: { 200: SuperAdminUser, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guard,
    handler: async (request) => superAdmin.updateUser(callerOf(request), request.params.userId, request.body),
  });

  app.get('/api/super-admin/logs', {
    schema: {
      tags,
      summary: `System logs: super admin changes, repeated failed sign-ins, refused payment webhooks; newest first; the total is in ${TOTAL_COUNT_HEADER}`,
      querystring: PlatformLogQuery,
      response: { 200: z.array(PlatformLogEntry), ...errorReplies(400, 401, 403) },
    },
    preValidation: guard,
    handler: async (request, reply) => sendItemsPage(reply, await superAdmin.logs(request.query)),
  });

  app.get('/api/super-admin/organizations/:orgId/domains', {
    schema: {
      tags,
      summary: "An organization's email domains, pending and verified (decision 058)",
      params: OrgParams,
      response: { 200: z.array(SuperAdminDomain), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guard,
    handler: async (request) => domains.listForOperator(request.params.orgId),
  });

  app.post('/api/super-admin/organizations/:orgId/domains/:id/verify', {
    schema: {
      tags,
      summary: "Verify an organization's pending email domain without its DNS record (decision 058)",
      description:
        "Recorded in the organization's audit log and the platform log. 409 `domain_verified_elsewhere` when " +
        'another organization holds the domain verified; 404 when the domain is not that organization’s.',
      params: SuperAdminDomainParams,
      response: { 200: SuperAdminDomain, ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: guard,
    handler: async (request) => domains.verifyByOperator(callerOf(request), request.params.orgId, request.params.id),
  });
}
