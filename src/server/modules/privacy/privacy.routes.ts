import {
  EraseRecipientBody,
  EraseRecipientResult,
  IdParams,
  RecipientPersonalData,
  personalDataFileName,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { PrivacyService } from './privacy.service';

/** A recipient's personal data (decision 015): listed under Recipients, where the desk finds it. */
export function privacyRoutes(app: App, privacy: PrivacyService) {
  const tags = ['Recipients'];
  const adminOnly = [app.authenticate, app.requireOrganization, app.requireAdmin];

  app.get('/api/recipients/:id/personal-data', {
    schema: {
      tags,
      summary:
        'Everything held about a recipient as a JSON download (admin): the record, their mail items (photos by id), ' +
        'the items’ history and the messages sent to them; audited',
      params: IdParams,
      response: { 200: RecipientPersonalData, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: adminOnly,
    handler: async (request, reply) => {
      const data = await privacy.exportPersonalData(callerOf(request), request.params.id);
      return reply
        .header('content-disposition', `attachment; filename="${personalDataFileName(request.params.id)}"`)
        .header('cache-control', 'no-store')
        .send(data);
    },
  });

  app.post('/api/recipients/:id/erase', {
    schema: {
      tags,
      summary:
        'Erase a recipient’s personal data everywhere in one transaction (admin): the row is anonymised and kept, ' +
        'copies on items, history and messages cleared, waiting messages cancelled, photos deleted; idempotent',
      params: IdParams,
      body: EraseRecipientBody,
      response: { 200: EraseRecipientResult, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: adminOnly,
    handler: async (request) => privacy.erasePersonalData(callerOf(request), request.params.id),
  });
}
