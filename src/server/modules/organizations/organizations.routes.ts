import { z } from 'zod';
import {
  CreateOrganizationBody,
  Member,
  MemberParams,
  MyOrganization,
  Organization,
  OrganizationParams,
  UpdateMemberBody,
  UpdateOrganizationBody,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import { authOf } from '../../plugins/session';
import type { OrganizationsService } from './organizations.service';

export function organizationsRoutes(app: App, organizations: OrganizationsService) {
  const tags = ['Organizations'];
  const guards = app.authenticate;
  // The calls naming the organization in the path.
  const member = [app.authenticate, app.requirePathOrganization];
  const admin = [app.authenticate, app.requirePathOrganization, app.requireAdmin];

  app.get('/api/organizations', {
    schema: {
      tags,
      summary: "The caller's organizations, each with the caller's role",
      response: { 200: z.array(MyOrganization), ...errorReplies(401) },
    },
    preValidation: guards,
    handler: async (request) => organizations.listMine(authOf(request).user.id),
  });

  app.post('/api/organizations', {
    schema: {
      tags,
      summary: 'Create an organization (the caller becomes its admin)',
      body: CreateOrganizationBody,
      response: { 201: MyOrganization, ...errorReplies(400, 401) },
    },
    preValidation: guards,
    handler: async (request, reply) =>
      reply.status(201).send(await organizations.create(authOf(request).user.id, request.body)),
  });

  app.get('/api/organizations/:id', {
    schema: {
      tags,
      summary: 'One of the caller’s organizations',
      params: OrganizationParams,
      response: { 200: Organization, ...errorReplies(400, 401, 404) },
    },
    preValidation: member,
    handler: async (request) => organizations.get(callerOf(request)),
  });

  app.put('/api/organizations/:id', {
    schema: {
      tags,
      summary: 'Update the organization (admin)',
      params: OrganizationParams,
      body: UpdateOrganizationBody,
      response: { 200: Organization, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request) => organizations.update(callerOf(request), request.body),
  });

  app.get('/api/organizations/:id/members', {
    schema: {
      tags,
      summary: 'Members with their role (admin)',
      params: OrganizationParams,
      response: { 200: z.array(Member), ...errorReplies(401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request) => organizations.listMembers(callerOf(request)),
  });

  app.put('/api/organizations/:id/members/:userId', {
    schema: {
      tags,
      summary: 'Change a member’s role (admin; the last admin cannot be demoted)',
      params: MemberParams,
      body: UpdateMemberBody,
      response: { 200: Member, ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: admin,
    handler: async (request) =>
      organizations.updateMemberRole(callerOf(request), request.params.userId, request.body.role),
  });

  app.delete('/api/organizations/:id/members/:userId', {
    schema: {
      tags,
      summary: 'Remove a member (admin; not yourself, not the last admin)',
      params: MemberParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: admin,
    handler: async (request, reply) => {
      await organizations.removeMember(callerOf(request), request.params.userId);
      return reply.status(204).send(null);
    },
  });
}
