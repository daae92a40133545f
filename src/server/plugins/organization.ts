import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ORGANIZATION_HEADER, ORGANIZATION_NOT_FOUND, type Role } from '../../contract';
import type { MembershipLookups, OrgCaller } from '../context';
import { AppError, badRequest, forbidden, notFound } from '../lib/errors';
import { authOf } from './session';
import { withTenants } from '../db/tenant-scope';
import { isOrganizationId, organizationHeaderOf } from './organization-header';

declare module 'fastify' {
  interface FastifyRequest {
    membership: { organizationId: string; role: Role } | null;
  }
  interface FastifyInstance {
    /** preValidation hook (after authenticate): the x-organization-id header names one of the caller's organizations. */
    requireOrganization: (request: FastifyRequest) => Promise<void>;
    /**
     * preValidation hook (after authenticate) of the calls naming the organization in the path
     * (`:orgId`, else `:id`): it is one of the caller's; any other answers 404, so organization
     * ids cannot be probed (a malformed id answers 400, as the path's schema would).
     */
    requirePathOrganization: (request: FastifyRequest) => Promise<void>;
    /** preValidation hook (after requireOrganization or requirePathOrganization): the caller is an admin of it. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
  }
}

export const NOT_A_MEMBER = 'You are not a member of this organization';
const ADMIN_REQUIRED = 'Only organization admins can do this';
const API_KEY_OTHER_ORGANIZATION = 'This API key belongs to another organization';
/** An organization id as the header and the path carry it. */
const HeaderValue = z.uuid();

/** The caller of an organization-scoped call; only valid behind `requireOrganization`. */
export function callerOf(request: FastifyRequest): OrgCaller {
  const auth = authOf(request);
  if (!request.membership) throw badRequest('Organization not selected');
  const { organizationId, role } = request.membership;
  const version = auth.dataVersion?.organizationId === organizationId ? auth.dataVersion.version : undefined;
  return {
    userId: auth.user.id,
    organizationId,
    role,
    ...(version !== undefined ? { dataVersion: version } : {}),
    ...(auth.apiKey ? { apiKeyId: auth.apiKey.id } : {}),
  };
}

export const organizationPlugin = fp(async (app, opts: { lookups: MembershipLookups }) => {
  app.decorateRequest('membership', null);

  app.decorate('requireOrganization', async (request: FastifyRequest) => {
    const value = organizationHeaderOf(request);
    // An API key names its organization; the header is optional and, when sent, must agree.
    const apiKey = authOf(request).apiKey;
    if (apiKey) {
      if (value && value !== apiKey.organizationId) throw forbidden(API_KEY_OTHER_ORGANIZATION, 'not_a_member');
      request.membership = { organizationId: apiKey.organizationId, role: 'member' };
      return;
    }
    if (!value) throw badRequest(`The ${ORGANIZATION_HEADER} header is required`, 'organization_required');
    // A malformed id cannot be a membership; it answers like any organization the caller is not in.
    if (!isOrganizationId(value)) throw forbidden(NOT_A_MEMBER, 'not_a_member');
    const { user, roleIn } = authOf(request);
    const role = roleIn?.organizationId === value ? roleIn.role : await opts.lookups.findRole(value, user.id);
    if (!role) throw forbidden(NOT_A_MEMBER, 'not_a_member');
    request.membership = { organizationId: value, role };
  });

  // From here on (route preHandlers and the handler) the request's statements are scoped to its
  // organization: row-level security shows them no other organization's rows.
  app.addHook('preHandler', (request, _reply, done) => {
    const organizationId = request.membership?.organizationId;
    if (organizationId) withTenants([organizationId], done);
    else done();
  });

  // Like requireOrganization, it runs before validation (who before what, decision 003) and its
  // handler runs scoped to the organization (the preHandler above).
  app.decorate('requirePathOrganization', async (request: FastifyRequest) => {
    const params = request.params as { id?: string; orgId?: string };
    const param = params.orgId !== undefined ? 'orgId' : 'id';
    const organizationId = params[param];
    if (organizationId === undefined) throw new Error(`${request.routeOptions.url} names no organization in its path`);
    if (!HeaderValue.safeParse(organizationId).success) {
      throw new AppError(400, ORGANIZATION_NOT_FOUND, 'validation_error', [
        { path: param, message: ORGANIZATION_NOT_FOUND },
      ]);
    }
    const userId = authOf(request).user.id;
    const role = await opts.lookups.findRole(organizationId, userId);
    if (!role) throw notFound(ORGANIZATION_NOT_FOUND);
    request.membership = { organizationId, role };
  });

  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    if (request.membership?.role !== 'admin') throw forbidden(ADMIN_REQUIRED, 'admin_required');
  });
});
