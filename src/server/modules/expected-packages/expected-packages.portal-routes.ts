import { z } from 'zod';
import { AddExpectedPackagesBody, ExpectedPackageList, IdParams } from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import type { ExpectedPackagesService } from './expected-packages.service';

/**
 * The recipient's own page (the portal): the tracking numbers they expect. The portal's
 * preValidation hook `app.authenticateRecipient` sets `request.recipientCaller`; every call reads
 * and writes only that recipient's rows of that organization, so another recipient's or another
 * organization's row answers 404. Registered by app.ts beside the portal's own routes (decision 033).
 */
export function expectedPackagesPortalRoutes(app: App, expected: ExpectedPackagesService) {
  const tags = ['Recipient portal'];
  const guards = [app.authenticateRecipient];

  app.get('/api/portal/expected', {
    schema: {
      tags,
      summary: 'The tracking numbers I expect, and those that arrived lately',
      response: { 200: ExpectedPackageList, ...errorReplies(401) },
    },
    preValidation: guards,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { items: await expected.list(request.recipientCaller) };
    },
  });

  app.post('/api/portal/expected', {
    schema: {
      tags,
      summary:
        'Expect a tracking number, or every number of a pasted shipping confirmation (400 for a number ' +
        'its carrier would not issue: format and check digit). Others may expect it too: the desk chooses',
      body: AddExpectedPackagesBody,
      response: { 201: ExpectedPackageList, ...errorReplies(400, 401, 404, 409) },
    },
    preValidation: guards,
    handler: async (request, reply) =>
      reply.status(201).send({ items: await expected.add(request.recipientCaller, request.body) }),
  });

  app.delete('/api/portal/expected/:id', {
    schema: {
      tags,
      summary: 'No longer expect a tracking number',
      params: IdParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 404) },
    },
    preValidation: guards,
    handler: async (request, reply) => {
      await expected.remove(request.recipientCaller, request.params.id);
      return reply.status(204).send(null);
    },
  });
}
