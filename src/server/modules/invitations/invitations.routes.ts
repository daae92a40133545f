import { z } from 'zod';
import {
  AcceptInvitationBody,
  AcceptedInvitation,
  CreateInvitationBody,
  ErrorReply,
  Invitation,
  InvitationParams,
  InvitationPreview,
  InvitationTokenParams,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import { authOf } from '../../plugins/session';
import type { InvitationsService } from './invitations.service';

export function invitationsRoutes(app: App, invitations: InvitationsService) {
  const tags = ['Invitations'];
  const adminOnly = [app.authenticate, app.requireOrganization, app.requireAdmin];

  app.get('/api/user-invitations', {
    schema: {
      tags,
      summary: 'Open invitations of the organization (admin), newest first, pending or expired',
      response: { 200: z.array(Invitation), ...errorReplies(400, 401, 403) },
    },
    preValidation: adminOnly,
    handler: async (request) => invitations.list(callerOf(request)),
  });

  app.post('/api/user-invitations', {
    schema: {
      tags,
      summary: 'Invite someone by email with a role (admin); emails them a link valid for 7 days',
      body: CreateInvitationBody,
      response: { 201: Invitation, ...errorReplies(400, 401, 403, 409, 429), 502: ErrorReply },
    },
    preValidation: adminOnly,
    handler: async (request, reply) =>
      reply.status(201).send(await invitations.create(callerOf(request), request.body)),
  });

  app.post('/api/user-invitations/:id/resend', {
    schema: {
      tags,
      summary: 'Send the invitation again with a new token and expiry (admin); the old link stops working',
      params: InvitationParams,
      response: { 200: Invitation, ...errorReplies(400, 401, 403, 404, 409, 429), 502: ErrorReply },
    },
    preValidation: adminOnly,
    handler: async (request) => invitations.resend(callerOf(request), request.params.id),
  });

  app.delete('/api/user-invitations/:id', {
    schema: {
      tags,
      summary: 'Revoke an open invitation (admin); its link stops working',
      params: InvitationParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: adminOnly,
    handler: async (request, reply) => {
      await invitations.revoke(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.get('/api/invitations/verify/:token', {
    schema: {
      tags,
      summary: 'What an invitation link offers (no session needed); 404 for unknown, used, revoked or expired',
      params: InvitationTokenParams,
      response: { 200: InvitationPreview, ...errorReplies(400, 404) },
    },
    handler: async (request) => invitations.verify(request.params.token),
  });

  app.post('/api/invitations/accept', {
    schema: {
      tags,
      summary: 'Join the invitation’s organization as the signed-in user (the emails must match)',
      body: AcceptInvitationBody,
      response: { 200: AcceptedInvitation, ...errorReplies(400, 401, 402, 409) },
    },
    preValidation: app.authenticate,
    handler: async (request) => {
      const { user } = authOf(request);
      return invitations.accept({ id: user.id, email: user.email }, request.body.token);
    },
  });
}
