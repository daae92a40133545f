import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  IdParams,
  PickupLookup,
  PickupLookupQuery,
  Proxy,
  ProxyBody,
  ProxyParams,
  RecipientPickupCode,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { PickupsService } from './pickups.service';

export function pickupsRoutes(app: App, pickups: PickupsService) {
  const tags = ['Pickups'];
  const guards = [app.authenticate, app.requireOrganization];

  // A code is as good as a key to someone's parcels: no cache keeps either answer.
  const lookupReply = (reply: FastifyReply, json: string) =>
    reply
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(Buffer.from(json) as never);

  app.get('/api/pickups/lookup', {
    schema: {
      tags,
      summary:
        'Whose pickup code it is (typed, scanned or read by the camera; spaces, dashes and case do not matter) ' +
        'and their items still waiting, oldest first',
      querystring: PickupLookupQuery,
      response: { 200: PickupLookup, ...errorReplies(400, 401, 403, 404, 409, 429) },
    },
    preValidation: guards,
    handler: async (request, reply) =>
      lookupReply(reply, await pickups.lookup(callerOf(request), { code: request.query.code })),
  });

  app.get('/api/recipients/:id/pickup-lookup', {
    schema: {
      tags,
      summary:
        'What the pickup-code lookup shows, found by the recipient instead (a hand-over started from an item’s ' +
        'row): not a guess, so not counted against pickup-code misses, and a deactivated recipient is found too',
      params: IdParams,
      response: { 200: PickupLookup, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guards,
    handler: async (request, reply) =>
      lookupReply(reply, await pickups.lookup(callerOf(request), { recipientId: request.params.id })),
  });

  app.get('/api/recipients/:id/pickup-code', {
    schema: {
      tags,
      summary: 'A recipient’s pickup code and its QR (SVG)',
      params: IdParams,
      response: { 200: RecipientPickupCode, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guards,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return pickups.code(callerOf(request), request.params.id);
    },
  });

  app.post('/api/recipients/:id/pickup-code', {
    schema: {
      tags,
      summary: 'Give a recipient a new pickup code; the old one stops working at once',
      params: IdParams,
      response: { 200: RecipientPickupCode, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guards,
    handler: async (request) => pickups.regenerate(callerOf(request), request.params.id),
  });

  app.get('/api/recipients/:id/proxies', {
    schema: {
      tags,
      summary: 'The people a recipient allows to collect for them',
      params: IdParams,
      response: { 200: z.array(Proxy), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guards,
    handler: async (request) => pickups.proxies(callerOf(request), request.params.id),
  });

  app.post('/api/recipients/:id/proxies', {
    schema: {
      tags,
      summary: 'Name someone who may collect for a recipient (at most 10; a name once)',
      params: IdParams,
      body: ProxyBody,
      response: { 201: Proxy, ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: guards,
    handler: async (request, reply) =>
      reply.status(201).send(await pickups.addProxy(callerOf(request), request.params.id, request.body.name)),
  });

  app.delete('/api/recipients/:id/proxies/:proxyId', {
    schema: {
      tags,
      summary: 'Take someone off a recipient’s list of proxies',
      params: ProxyParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guards,
    handler: async (request, reply) => {
      await pickups.removeProxy(callerOf(request), request.params.id, request.params.proxyId);
      return reply.status(204).send(null);
    },
  });
}
