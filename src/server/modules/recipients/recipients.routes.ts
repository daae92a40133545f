import { z } from 'zod';
import {
  IMPORT_MAX_BYTES,
  ErrorReply,
  IdParams,
  Recipient,
  RecipientBody,
  RecipientImportBody,
  RecipientImportPreview,
  RecipientImportResult,
  RecipientListQuery,
  RecipientSummary,
  UpdateRecipientBody,
  TOTAL_COUNT_HEADER,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies, sendListPage } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { RecipientsService } from './recipients.service';

/** A CSV of IMPORT_MAX_BYTES inside JSON: escaping can double it. */
const IMPORT_BODY_LIMIT = IMPORT_MAX_BYTES * 2 + 64 * 1024;

export function recipientsRoutes(app: App, recipients: RecipientsService) {
  const tags = ['Recipients'];
  const guards = [app.authenticate, app.requireOrganization];
  const adminOnly = [app.authenticate, app.requireOrganization, app.requireAdmin];

  app.get('/api/recipients', {
    schema: {
      tags,
      summary: `Recipients by last and first name; search matches name, email, unit and department; the total is in ${TOTAL_COUNT_HEADER}`,
      querystring: RecipientListQuery,
      response: { 200: z.array(Recipient), ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request, reply) => {
      // Already JSON (built by PostgreSQL): sent as it is.
      return sendListPage(reply, await recipients.listPage(callerOf(request), request.query));
    },
  });

  app.get('/api/recipients/summary', {
    schema: {
      tags,
      summary: 'Total and active recipients (the Total Recipients card)',
      response: { 200: RecipientSummary, ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request) => recipients.summary(callerOf(request)),
  });

  app.get('/api/recipients/:id', {
    schema: {
      tags,
      summary: 'One recipient',
      params: IdParams,
      response: { 200: Recipient, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guards,
    handler: async (request) => recipients.get(callerOf(request), request.params.id),
  });

  app.post('/api/recipients', {
    schema: {
      tags,
      summary: 'Add a recipient',
      body: RecipientBody,
      response: { 201: Recipient, ...errorReplies(400, 401, 403) },
    },
    preValidation: guards,
    handler: async (request, reply) => reply.status(201).send(await recipients.create(callerOf(request), request.body)),
  });

  app.put('/api/recipients/:id', {
    schema: {
      tags,
      summary: 'Change any of a recipient’s fields, e.g. only {isActive} to activate or deactivate',
      params: IdParams,
      body: UpdateRecipientBody,
      response: { 200: Recipient, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: guards,
    handler: async (request) => recipients.update(callerOf(request), request.params.id, request.body),
  });

  app.delete('/api/recipients/:id', {
    schema: {
      tags,
      summary: 'Delete a recipient (admin); their mail items keep their history',
      params: IdParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: adminOnly,
    handler: async (request, reply) => {
      await recipients.remove(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post('/api/recipients/import/preview', {
    schema: {
      tags,
      summary: 'Check a CSV of recipients row by row without writing anything (admin)',
      body: RecipientImportBody,
      response: { 200: RecipientImportPreview, ...errorReplies(400, 401, 403, 413) },
    },
    bodyLimit: IMPORT_BODY_LIMIT,
    onRequest: app.authenticate,
    preValidation: adminOnly,
    handler: async (request) => recipients.previewImport(callerOf(request), request.body),
  });

  app.post('/api/recipients/import', {
    schema: {
      tags,
      summary: 'Import a CSV of recipients in one transaction (admin); invalid rows are left out',
      body: RecipientImportBody,
      response: { 200: RecipientImportResult, 409: ErrorReply, ...errorReplies(400, 401, 403, 413) },
    },
    bodyLimit: IMPORT_BODY_LIMIT,
    onRequest: app.authenticate,
    preValidation: adminOnly,
    handler: async (request) => recipients.importCsv(callerOf(request), request.body),
  });
}
