import { z } from 'zod';
import {
  CreateMailItemBody,
  ErrorReply,
  IF_MATCH_INVALID,
  IdParams,
  LogWithoutRecipientBody,
  MailItem,
  MailItemHistoryEntry,
  MailItemHistoryQuery,
  MailItemListQuery,
  MailItemSummary,
  NeedsRecipientCount,
  NeedsRecipientItem,
  NeedsRecipientListQuery,
  PendingSummary,
  PHOTO_TOO_LARGE,
  ResolveRecipientBody,
  RevisionConflictReply,
  UpdateMailItemBody,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies, sendItemsPage, sendListPage } from '../../http';
import { badRequest } from '../../lib/errors';
import { callerOf } from '../../plugins/organization';
import { idempotencyOf, sendAnswer } from './idempotency';
import type { MailItemsService } from './mail-items.service';

/**
 * `photoBodyLimit`: the largest body of the two calls that carry a photo (BODY_LIMIT_BYTES); every
 * other call keeps the server's small default.
 */
/** The revision an edit was made from: `If-Match: "3"` (or 3); undefined without the header. */
function expectedRevisionOf(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const match = typeof header === 'string' ? /^\s*(?:W\/)?("?)(\d{1,9})\1\s*$/.exec(header) : null;
  if (!match) throw badRequest(IF_MATCH_INVALID, 'invalid_if_match');
  return Number(match[2]);
}

/** Sent with an Idempotency-Key (decision 044): a repeat answers the first answer again. */
const idempotent =
  'Send an Idempotency-Key header to have a repeat answered with the first answer instead of writing twice. ';

export function mailItemsRoutes(app: App, mailItems: MailItemsService, photoBodyLimit: number) {
  const tags = ['Mail items'];
  const guards = [app.authenticate, app.requireOrganization];
  const ItemParams = IdParams.extend({ id: z.uuid({ message: 'Mail item not found' }) });
  // The two calls that carry a photo: a body past BODY_LIMIT_BYTES is a photo far over its limit.
  // Signed-out callers are refused before the body is read.
  const carriesPhoto = {
    bodyLimit: photoBodyLimit,
    config: { bodyTooLargeMessage: PHOTO_TOO_LARGE },
    onRequest: app.authenticate,
  };

  app.get('/api/mail-items', {
    schema: {
      tags,
      summary: 'Mail items, newest first (filters; the total is in X-Total-Count); view=summary gives list rows',
      querystring: MailItemListQuery,
      response: { 200: z.union([z.array(MailItem), z.array(MailItemSummary)]), ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request, reply) => {
      // Already JSON (built by the same DTO mapper as every other reply): sent as it is.
      return sendListPage(reply, await mailItems.listPage(callerOf(request), request.query));
    },
  });

  app.get('/api/mail-items/pending-summary', {
    schema: {
      tags,
      summary: 'The Pending Pickups counters',
      response: { 200: PendingSummary, ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request) => mailItems.pendingSummary(callerOf(request)),
  });

  // Items that need a recipient (decision 041): members and admins, like an intake.
  app.get('/api/mail-items/needs-recipient', {
    schema: {
      tags,
      summary: 'Items logged without a recipient, newest first, 50 a page (the total is in X-Total-Count)',
      querystring: NeedsRecipientListQuery,
      response: { 200: z.array(NeedsRecipientItem), ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request, reply) =>
      sendItemsPage(reply, await mailItems.needsRecipient(callerOf(request), request.query.offset)),
  });

  app.get('/api/mail-items/needs-recipient/count', {
    schema: {
      tags,
      summary: 'How many items wait for a recipient (the navigation badge)',
      response: { 200: NeedsRecipientCount, ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request) => mailItems.needsRecipientCount(callerOf(request)),
  });

  app.post('/api/mail-items/needs-recipient', {
    schema: {
      tags,
      summary:
        'Log a mail item whose recipient the desk cannot tell (waits under Needs a recipient, no event until resolved; counts toward the monthly limit)',
      description: idempotent,
      body: LogWithoutRecipientBody,
      response: { 201: MailItem, ...errorReplies(400, 401, 402, 403, 404, 413, 422) },
    },
    ...carriesPhoto,
    preValidation: guards,
    handler: async (request, reply) =>
      sendAnswer(
        reply,
        await mailItems.createWithoutRecipientAnswered(callerOf(request), request.body, idempotencyOf(request)),
      ),
  });

  app.post('/api/mail-items/:id/resolve', {
    schema: {
      tags,
      summary:
        'Give an item that needs a recipient its recipient: it becomes pending and mail_item.created is sent then (arrival message, webhooks)',
      params: ItemParams,
      body: ResolveRecipientBody,
      response: { 200: MailItem, ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: guards,
    handler: async (request) =>
      mailItems.resolve(callerOf(request), request.params.id, request.body.recipientId, request.body.recipientSource),
  });

  app.get('/api/mail-items/:id', {
    schema: {
      tags,
      summary: 'One mail item',
      params: ItemParams,
      response: { 200: MailItem, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guards,
    handler: async (request) => mailItems.get(callerOf(request), request.params.id),
  });

  app.get('/api/mail-items/:id/history', {
    schema: {
      tags,
      summary:
        "The item's timeline, oldest first, a page at a time (kept after the item is deleted; the total is in X-Total-Count)",
      params: ItemParams,
      querystring: MailItemHistoryQuery,
      response: { 200: z.array(MailItemHistoryEntry), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guards,
    handler: async (request, reply) =>
      sendItemsPage(reply, await mailItems.history(callerOf(request), request.params.id, request.query)),
  });

  app.post('/api/mail-items', {
    schema: {
      tags,
      summary: 'Log a mail item (starts pending; counts toward the monthly package limit)',
      description: idempotent,
      body: CreateMailItemBody,
      response: { 201: MailItem, ...errorReplies(400, 401, 402, 403, 404, 413, 422) },
    },
    ...carriesPhoto,
    preValidation: guards,
    handler: async (request, reply) =>
      sendAnswer(reply, await mailItems.createAnswered(callerOf(request), request.body, idempotencyOf(request))),
  });

  app.put('/api/mail-items/:id', {
    schema: {
      tags,
      summary: 'Edit fields or change the status (notifiedAt, deliveredAt and the hand-over are set by the server)',
      description:
        'Send `If-Match: "<revision>"` (the revision the clerk saw) to be refused with 409 and the item as it is now ' +
        'when someone changed it meanwhile, instead of undoing their change. ' +
        idempotent,
      params: ItemParams,
      body: UpdateMailItemBody,
      response: {
        200: MailItem,
        ...errorReplies(400, 401, 403, 404, 413, 422),
        409: z.union([RevisionConflictReply, ErrorReply]),
      },
    },
    ...carriesPhoto,
    preValidation: guards,
    handler: async (request, reply) =>
      sendAnswer(
        reply,
        await mailItems.updateAnswered(callerOf(request), request.params.id, request.body, {
          claim: idempotencyOf(request),
          expectedRevision: expectedRevisionOf(request.headers['if-match']),
        }),
      ),
  });

  for (const [method, url] of [
    ['POST', '/api/mail-items/:id/delete'],
    ['DELETE', '/api/mail-items/:id'],
  ] as const) {
    app.route({
      method,
      url,
      schema: {
        tags,
        summary: 'Delete a mail item (its history is kept)',
        params: ItemParams,
        response: { 204: z.null(), ...errorReplies(400, 401, 403, 404) },
      },
      preValidation: guards,
      handler: async (request, reply) => {
        await mailItems.delete(callerOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    });
  }
}
