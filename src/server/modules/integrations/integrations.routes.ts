import { z } from 'zod';
import {
  ApiKey,
  CreateApiKeyBody,
  CreatedApiKey,
  CreatedIntegration,
  CreateIntegrationBody,
  DeliveriesQuery,
  Id,
  IdParams,
  Integration,
  MASKED_SECRET,
  NotificationMessage,
  SlackChannel,
  TestIntegrationBody,
  TestIntegrationReply,
  UpdateIntegrationBody,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies, sendItemsPage } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { IntegrationsService } from './integrations.service';

const ApiKeyParams = z.object({ id: Id, keyId: Id });

const SECRETS_NOTE =
  `Secrets (emailSettings.password, smsSettings.authToken, slackSettings.botToken, the webhook signing secret) are stored encrypted and ` +
  `answered as "${MASKED_SECRET}" when set. On PUT a secret left out, blank or equal to "${MASKED_SECRET}" keeps ` +
  'the stored one.';

export function integrationsRoutes(app: App, integrations: IntegrationsService) {
  const tags = ['Integrations'];
  const member = [app.authenticate, app.requireOrganization];
  const admin = [app.authenticate, app.requireOrganization, app.requireAdmin];

  app.get('/api/integrations', {
    schema: {
      tags,
      summary: "The organization's integrations with their delivery figures of the last 7 days",
      description: SECRETS_NOTE,
      response: { 200: z.array(Integration), ...errorReplies(400, 401, 403) },
    },
    preValidation: member,
    handler: async (request) => integrations.list(callerOf(request)),
  });

  app.post('/api/integrations', {
    schema: {
      tags,
      summary: 'Add an integration (admin)',
      description:
        'webhook: webhookUrl is required (a public address unless ALLOW_PRIVATE_TARGETS); the reply carries the signing secret ' +
        '(webhookSecret, Standard Webhooks "whsec_…") once. email: smtpHost is required unless the platform has ' +
        'SMTP_URL. sms: accountSid, authToken and fromNumber are required. api: the reply carries its first API key ' +
        `(apiKey) once. slack: slackSettings.botToken is required and checked with Slack's auth.test before anything ` +
        'is saved (400 slack_token_refused, 502 slack_unreachable); staffChannelId comes from /slack-channels. ' +
        `402 trial_expired after the free trial. ${SECRETS_NOTE}`,
      body: CreateIntegrationBody,
      response: { 201: CreatedIntegration, ...errorReplies(400, 401, 402, 403, 502) },
    },
    preValidation: admin,
    handler: async (request, reply) =>
      reply.status(201).send(await integrations.create(callerOf(request), request.body)),
  });

  app.put('/api/integrations/:id', {
    schema: {
      tags,
      summary: 'Edit an integration or switch it on or off (admin)',
      description:
        `The full payload, or only the fields that change (e.g. {"isActive": false}); the type cannot change (400). ` +
        'A Slack config is checked with auth.test first (400 slack_token_refused, 502 slack_unreachable); a ' +
        `working token clears the integration's attention. ${SECRETS_NOTE}`,
      params: IdParams,
      body: UpdateIntegrationBody,
      response: { 200: Integration, ...errorReplies(400, 401, 403, 404, 502) },
    },
    preValidation: admin,
    handler: async (request) => integrations.update(callerOf(request), request.params.id, request.body),
  });

  app.delete('/api/integrations/:id', {
    schema: {
      tags,
      summary: 'Delete an integration and its API keys (admin)',
      params: IdParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request, reply) => {
      await integrations.remove(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post('/api/integrations/:id/rotate-secret', {
    schema: {
      tags,
      summary: "Replace a webhook's signing secret (admin); the new one is answered once in webhookSecret",
      params: IdParams,
      response: { 200: CreatedIntegration, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request) => integrations.rotateSecret(callerOf(request), request.params.id),
  });

  app.post('/api/integrations/:id/test', {
    schema: {
      tags,
      summary: 'Send a test message now (admin)',
      description:
        'email: to the caller\'s own address; sms: to `to`; webhook: a signed "test" event. A failed send answers ' +
        '200 with ok: false and the reason; the attempt is recorded in the delivery log.',
      params: IdParams,
      body: TestIntegrationBody.nullish(),
      response: { 200: TestIntegrationReply, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request) => integrations.test(callerOf(request), request.params.id, request.body ?? {}),
  });

  app.get('/api/integrations/:id/slack-channels', {
    schema: {
      tags,
      summary: "The Slack channels the integration's bot token sees, by name (admin): the staff channel's choices",
      description:
        "Calls Slack's conversations.list with the stored token. 400 not_slack_integration for another type, " +
        '400 slack_token_refused when Slack refuses the token, 502 slack_unreachable when Slack cannot be reached.',
      params: IdParams,
      response: { 200: z.array(SlackChannel), ...errorReplies(400, 401, 403, 404, 502) },
    },
    preValidation: admin,
    handler: async (request) => integrations.slackChannels(callerOf(request), request.params.id),
  });

  app.get('/api/integrations/:id/deliveries', {
    schema: {
      tags,
      summary: "The integration's messages, newest first (admin); the total in X-Total-Count",
      params: IdParams,
      querystring: DeliveriesQuery,
      response: { 200: z.array(NotificationMessage), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request, reply) =>
      sendItemsPage(reply, await integrations.deliveries(callerOf(request), request.params.id, request.query)),
  });

  app.get('/api/integrations/:id/api-keys', {
    schema: {
      tags,
      summary: "An API integration's keys, revoked ones included (admin); keys are never shown again",
      params: IdParams,
      response: { 200: z.array(ApiKey), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request) => integrations.listApiKeys(callerOf(request), request.params.id),
  });

  app.post('/api/integrations/:id/api-keys', {
    schema: {
      tags,
      summary: 'Create an API key (admin); the key is in the reply once and stored only as its hash',
      params: IdParams,
      body: CreateApiKeyBody,
      response: { 201: CreatedApiKey, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request, reply) =>
      reply.status(201).send(await integrations.createApiKey(callerOf(request), request.params.id, request.body.name)),
  });

  app.delete('/api/integrations/:id/api-keys/:keyId', {
    schema: {
      tags,
      summary: 'Revoke an API key (admin); calls with it answer 401 at once',
      params: ApiKeyParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request, reply) => {
      await integrations.revokeApiKey(callerOf(request), request.params.id, request.params.keyId);
      return reply.status(204).send(null);
    },
  });
}
