import type { FastifySchemaValidationError } from 'fastify';
import { z } from 'zod';
import { ErrorReply, OrganizationSettings, UpdateOrganizationSettingsBody } from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { AppError } from '../../lib/errors';
import { callerOf } from '../../plugins/organization';
import type { OrganizationSettingsService } from './settings.service';

const SettingsParams = z.object({ orgId: z.uuid({ message: 'Organization not found' }) });

const VALUE_EXISTS = 'Value already exists';

/** The contract refuses a duplicate list value with a custom issue carrying `params.value`. */
function duplicateValueOf(issue: FastifySchemaValidationError): string | undefined {
  const inner = (issue.params as { params?: { value?: unknown } } | undefined)?.params;
  return issue.keyword === 'custom' && typeof inner?.value === 'string' ? inner.value : undefined;
}

/**
 * A validation failure that includes a duplicate list value answers like the client's toast:
 * title 'Value already exists', description naming the value. Any other failure is left to the
 * error plugin (null).
 */
function duplicateValueReply(validation: FastifySchemaValidationError[]): ErrorReply | null {
  if (!validation.some((v) => duplicateValueOf(v) !== undefined)) return null;
  const errors = validation.map((v) => {
    const value = duplicateValueOf(v);
    return {
      path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
      message: value !== undefined ? `"${value}" is already in the list` : (v.message ?? 'Invalid value'),
    };
  });
  const first = validation[0]!;
  return {
    message: duplicateValueOf(first) !== undefined ? VALUE_EXISTS : (first.message ?? VALUE_EXISTS),
    code: 'validation_error',
    errors,
  };
}

/** The route's validation error: a duplicate list value worded as above, any other left to the error plugin. */
function settingsValidationError(validation: FastifySchemaValidationError[]): Error {
  const duplicate = duplicateValueReply(validation);
  if (duplicate) return new AppError(400, duplicate.message, duplicate.code, duplicate.errors);
  return new Error(validation[0]?.message ?? 'Invalid request');
}

export function organizationSettingsRoutes(app: App, settings: OrganizationSettingsService) {
  const tags = ['Organization settings'];

  app.get('/api/organization-settings/:orgId', {
    schema: {
      tags,
      summary: 'The organization’s customization lists and preferences (members)',
      params: SettingsParams,
      response: { 200: OrganizationSettings, ...errorReplies(400, 401, 404) },
    },
    preValidation: [app.authenticate, app.requirePathOrganization],
    handler: async (request) => settings.get(callerOf(request)),
  });

  app.put('/api/organization-settings/:orgId', {
    schema: {
      tags,
      summary: 'Change any of the lists or preferences (admin); answers the full settings',
      params: SettingsParams,
      body: UpdateOrganizationSettingsBody,
      response: { 200: OrganizationSettings, 400: ErrorReply, ...errorReplies(401, 403, 404) },
    },
    schemaErrorFormatter: settingsValidationError,
    preValidation: [app.authenticate, app.requirePathOrganization, app.requireAdmin],
    handler: async (request) => settings.update(callerOf(request), request.body),
  });
}
