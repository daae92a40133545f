import {
  MessageReply,
  RecoveryCodesReply,
  RegenerateRecoveryCodesBody,
  TWO_FACTOR_MESSAGES,
  TwoFactorDisableBody,
  TwoFactorEnableBody,
  TwoFactorSetupBody,
  TwoFactorSetupReply,
  TwoFactorStatus,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { authOf } from '../../plugins/session';
import type { TwoFactorService } from './two-factor.service';

/** Account settings' two-factor section; every call is about the signed-in account itself. */
export function twoFactorRoutes(app: App, twoFactor: TwoFactorService) {
  const tags = ['Accounts'];

  app.get('/api/auth/two-factor', {
    schema: {
      tags,
      summary: 'Whether two-factor sign-in is on, and how many recovery codes are left',
      response: { 200: TwoFactorStatus, ...errorReplies(401) },
    },
    preValidation: app.authenticate,
    handler: async (request) => twoFactor.status(authOf(request).user.id),
  });

  app.post('/api/auth/two-factor/setup', {
    schema: {
      tags,
      summary: 'Start turning two-factor on (the password again): a new secret as a QR code, not yet in force',
      body: TwoFactorSetupBody,
      response: { 200: TwoFactorSetupReply, ...errorReplies(400, 401, 409) },
    },
    preValidation: app.authenticate,
    handler: async (request) => twoFactor.setup(authOf(request).user.id, request.body.password),
  });

  app.post('/api/auth/two-factor/enable', {
    schema: {
      tags,
      summary: 'Turn two-factor on with a code from the app; answers the recovery codes once and ends other sessions',
      body: TwoFactorEnableBody,
      response: { 200: RecoveryCodesReply, ...errorReplies(400, 401, 409, 429) },
    },
    preValidation: app.authenticate,
    handler: async (request) => {
      const { user, sessionId } = authOf(request);
      return { recoveryCodes: await twoFactor.enable(user.id, sessionId, request.body.code) };
    },
  });

  app.post('/api/auth/two-factor/disable', {
    schema: {
      tags,
      summary: 'Turn two-factor off (the password and a code from the app or a recovery code)',
      body: TwoFactorDisableBody,
      response: { 200: MessageReply, ...errorReplies(400, 401, 409, 429) },
    },
    preValidation: app.authenticate,
    handler: async (request) => {
      await twoFactor.disable(authOf(request).user.id, request.body.password, request.body.code);
      return { message: TWO_FACTOR_MESSAGES.disabled };
    },
  });

  app.post('/api/auth/two-factor/recovery-codes', {
    schema: {
      tags,
      summary: 'New recovery codes in place of the old ones (a code from the app or a recovery code)',
      body: RegenerateRecoveryCodesBody,
      response: { 200: RecoveryCodesReply, ...errorReplies(400, 401, 409, 429) },
    },
    preValidation: app.authenticate,
    handler: async (request) => ({
      recoveryCodes: await twoFactor.regenerateRecoveryCodes(authOf(request).user.id, request.body.code),
    }),
  });
}
