import { z } from 'zod';
import { HANDOVER_NOT_FOUND, HandOverBody, Handover, PHOTO_TOO_LARGE } from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import { idempotencyOf, sendAnswer } from './idempotency';
import type { HandoversService } from './handovers.service';

/** `photoBodyLimit`: a hand-over may carry a photo of the collector, as an intake carries one. */
export function handoversRoutes(app: App, handovers: HandoversService, photoBodyLimit: number) {
  const tags = ['Pickups'];
  const guards = [app.authenticate, app.requireOrganization];

  app.post('/api/handovers', {
    schema: {
      tags,
      summary:
        'Hand items of one recipient over with proof (collector, how identified, signature, photo): all or none; ' +
        'someone not on the recipient’s list of proxies needs a reason',
      description:
        'Send an Idempotency-Key header to have a repeat answered with the first hand-over instead of handing over twice.',
      body: HandOverBody,
      response: { 201: Handover, ...errorReplies(400, 401, 403, 404, 409, 413, 422) },
    },
    bodyLimit: photoBodyLimit,
    config: { bodyTooLargeMessage: PHOTO_TOO_LARGE },
    onRequest: app.authenticate,
    preValidation: guards,
    handler: async (request, reply) =>
      sendAnswer(reply, await handovers.handOverAnswered(callerOf(request), request.body, idempotencyOf(request))),
  });

  app.get('/api/handovers/:id', {
    schema: {
      tags,
      summary: 'The proof of a hand-over and the items it took',
      params: z.object({ id: z.uuid({ message: HANDOVER_NOT_FOUND }) }),
      response: { 200: Handover, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guards,
    handler: async (request) => handovers.get(callerOf(request), request.params.id),
  });
}
