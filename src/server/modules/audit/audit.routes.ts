import { z } from 'zod';
import { AuditEntry, AuditLogQuery, TOTAL_COUNT_HEADER } from '../../../contract';
import type { App } from '../../http';
import { errorReplies, sendItemsPage } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { AuditService } from './audit.service';

export function auditRoutes(app: App, audit: AuditService) {
  app.get('/api/audit-log', {
    schema: {
      tags: ['Audit log'],
      summary: `Administration of the organization (admin): who invited, removed, changed a role, a setting, an integration, an API key or a mailroom, newest first; the total is in ${TOTAL_COUNT_HEADER}`,
      querystring: AuditLogQuery,
      response: { 200: z.array(AuditEntry), ...errorReplies(400, 401, 403) },
    },
    preValidation: [app.authenticate, app.requireOrganization, app.requireAdmin],
    handler: async (request, reply) => sendItemsPage(reply, await audit.list(callerOf(request), request.query)),
  });
}
