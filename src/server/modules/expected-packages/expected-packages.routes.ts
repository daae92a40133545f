import { ExpectedMatch, ExpectedMatchQuery } from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { ExpectedPackagesService } from './expected-packages.service';

/** The desk's side of expected packages (decision 033); the recipient's is in expected-packages.portal-routes.ts. */
export function expectedPackagesRoutes(app: App, expected: ExpectedPackagesService) {
  app.get('/api/expected-packages/match', {
    schema: {
      tags: ['Mail Items'],
      summary:
        'Everyone who expects this tracking number (typed or scanned; spaces, dashes and case do not ' +
        'matter), oldest first: the Log Mail dialog offers them, never fills them in. 404 when no one does',
      querystring: ExpectedMatchQuery,
      response: { 200: ExpectedMatch, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: [app.authenticate, app.requireOrganization],
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return expected.match(callerOf(request), request.query.tracking);
    },
  });
}
