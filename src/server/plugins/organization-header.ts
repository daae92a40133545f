import type { FastifyRequest } from 'fastify';
import { ORGANIZATION_HEADER } from '../../contract';
import { isUuid } from '../db/tenant-scope';

/** The x-organization-id header as sent (its first value), or undefined. */
export function organizationHeaderOf(request: FastifyRequest): string | undefined {
  const raw = request.headers[ORGANIZATION_HEADER];
  return Array.isArray(raw) ? raw[0] : raw;
}

/** Whether a header value can be an organization's id at all (a malformed one never is a membership). */
export const isOrganizationId = (value: string | undefined): value is string => value !== undefined && isUuid(value);
