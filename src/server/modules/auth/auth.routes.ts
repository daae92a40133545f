import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ChangePasswordBody,
  ForgotPasswordBody,
  LoginBody,
  LoginReply,
  LoginTwoFactorBody,
  MessageReply,
  RegisterBody,
  ResetPasswordBody,
  SignInReply,
  UpdateLanguageBody,
  UpdateUserBody,
  User,
  VerifyEmailBody,
  EMAIL_VERIFICATION_MESSAGES,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { authOf } from '../../plugins/session';
import { FORGOT_PASSWORD_REPLY, toUserDto, type AuthService, type ClientInfo, type SignedIn } from './auth.service';

const clientOf = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 300),
});

/** Sets the new session's cookie and answers the user (with the invitation's outcome, if any). */
function signedIn(reply: FastifyReply, { user, session, invitation }: SignedIn) {
  reply.setSessionCookie(session.token, session.expire);
  return invitation ? { ...user, invitation } : user;
}

export function authRoutes(app: App, auth: AuthService) {
  const tags = ['Accounts'];

  app.post('/api/register', {
    schema: {
      tags,
      summary: 'Create an account and sign in; with invitationToken also join its organization (all or nothing)',
      body: RegisterBody,
      response: { 201: SignInReply, ...errorReplies(400, 402, 403, 409, 429) },
    },
    handler: async (request, reply) => {
      const { user, session, invitation } = await auth.register(request.body, clientOf(request));
      reply.setSessionCookie(session.token, session.expire);
      return reply.status(201).send(invitation ? { ...user, invitation } : user);
    },
  });

  app.post('/api/login', {
    schema: {
      tags,
      summary:
        'Sign in with email or username; with invitationToken also join its organization (the outcome is in ' +
        '`invitation`). An account with two-factor on gets `{twoFactorRequired, challenge}` and no session: ' +
        'the code goes to POST /api/login/two-factor',
      body: LoginBody,
      response: { 200: LoginReply, ...errorReplies(400, 401, 403, 429) },
    },
    handler: async (request, reply) => {
      const { username, password, invitationToken } = request.body;
      const result = await auth.login(username, password, clientOf(request), invitationToken);
      if ('twoFactor' in result) return result.twoFactor;
      return signedIn(reply, result);
    },
  });

  app.post('/api/login/two-factor', {
    schema: {
      tags,
      summary: "The second step of a sign-in with two-factor on: the first step's challenge and a code",
      body: LoginTwoFactorBody,
      response: { 200: SignInReply, ...errorReplies(400, 429) },
    },
    handler: async (request, reply) => signedIn(reply, await auth.loginWithCode(request.body, clientOf(request))),
  });

  app.post('/api/logout', {
    schema: { tags, summary: 'End the current session', response: { 204: z.null() } },
    handler: async (request, reply) => {
      // Signing out is idempotent: without a live session there is nothing to end.
      await app.authenticate(request, reply).catch(() => undefined);
      if (request.auth) await auth.logout(request.auth.sessionId, request.auth.user.id);
      reply.clearSessionCookie();
      return reply.status(204).send(null);
    },
  });

  app.get('/api/auth/user', {
    schema: { tags, summary: 'The signed-in user', response: { 200: User, ...errorReplies(401) } },
    preValidation: app.authenticate,
    handler: async (request) => toUserDto(authOf(request).user),
  });

  app.patch('/api/auth/user', {
    schema: {
      tags,
      summary: 'Update first and last name',
      body: UpdateUserBody,
      response: { 200: User, ...errorReplies(400, 401) },
    },
    preValidation: app.authenticate,
    handler: async (request) => auth.updateName(authOf(request).user.id, request.body),
  });

  app.put('/api/auth/user/language', {
    schema: {
      tags,
      summary: "The staff screens' language (null follows the browser)",
      body: UpdateLanguageBody,
      response: { 200: User, ...errorReplies(400, 401) },
    },
    preValidation: app.authenticate,
    handler: async (request) => auth.updateLanguage(authOf(request).user.id, request.body),
  });

  app.post('/api/change-password', {
    schema: {
      tags,
      summary: 'Change password',
      body: ChangePasswordBody,
      response: { 200: MessageReply, ...errorReplies(400, 401) },
    },
    preValidation: app.authenticate,
    handler: async (request) => {
      const { user, sessionId } = authOf(request);
      await auth.changePassword(user.id, sessionId, request.body);
      return { message: 'Password changed successfully' };
    },
  });

  app.post('/api/forgot-password', {
    schema: {
      tags,
      summary: 'Email a password reset link',
      body: ForgotPasswordBody,
      response: { 200: MessageReply, ...errorReplies(400, 429) },
    },
    handler: async (request) => {
      await auth.forgotPassword(request.body.email, clientOf(request));
      return { message: FORGOT_PASSWORD_REPLY };
    },
  });

  app.post('/api/reset-password', {
    schema: {
      tags,
      summary: 'Set a new password with an emailed token',
      body: ResetPasswordBody,
      response: { 200: MessageReply, ...errorReplies(400) },
    },
    handler: async (request) => {
      await auth.resetPassword(request.body);
      return { message: 'Your password has been reset. You can now log in.' };
    },
  });

  app.post('/api/verify-email', {
    schema: {
      tags,
      summary: 'Prove the account email with the emailed single-use token (/verify-email?token=...)',
      body: VerifyEmailBody,
      response: { 200: MessageReply, ...errorReplies(400) },
    },
    handler: async (request) => {
      const { superAdminClaim } = await auth.verifyEmail(request.body);
      return {
        message: superAdminClaim
          ? EMAIL_VERIFICATION_MESSAGES.verifiedSuperAdmin
          : EMAIL_VERIFICATION_MESSAGES.verified,
      };
    },
  });

  app.post('/api/verify-email/resend', {
    schema: {
      tags,
      summary: 'Email a new verification link to the signed-in account (a few an hour)',
      response: { 200: MessageReply, ...errorReplies(401, 409, 429) },
    },
    preValidation: app.authenticate,
    handler: async (request) => {
      await auth.resendVerification(authOf(request).user.id);
      return { message: EMAIL_VERIFICATION_MESSAGES.sent };
    },
  });
}
