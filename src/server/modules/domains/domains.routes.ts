import { z } from 'zod';
import { ClaimDomainBody, DOMAIN_TXT_PREFIX, DomainParams, OrganizationDomain, domainTxtName } from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import { DNS_CHECKS_PER_MINUTE, type DomainsService } from './domains.service';

/** An organization's email domains (Settings → Single sign-on), admins only: HTTP only. */
export function domainsRoutes(app: App, domains: DomainsService) {
  const tags = ['Single sign-on'];
  const admin = [app.authenticate, app.requireOrganization, app.requireAdmin];

  app.get('/api/domains', {
    schema: {
      tags,
      summary: "The organization's email domains with their verification records, by name (admin)",
      response: { 200: z.array(OrganizationDomain), ...errorReplies(400, 401, 403) },
    },
    preValidation: admin,
    handler: async (request) => domains.list(callerOf(request)),
  });

  app.post('/api/domains', {
    schema: {
      tags,
      summary: 'Claim an email domain (admin); it stays pending until its DNS record proves it',
      description:
        'The domain is normalised (lower case, IDNA) and must be a registrable name: no scheme, path, wildcard, ' +
        'IP address or public suffix alone. 409 `domain_already_claimed` when this organization has it; 409 ' +
        '`domain_verified_elsewhere` when another organization has verified it.',
      body: ClaimDomainBody,
      response: { 201: OrganizationDomain, ...errorReplies(400, 401, 403, 409) },
    },
    preValidation: admin,
    handler: async (request, reply) =>
      reply.status(201).send(await domains.claim(callerOf(request), request.body.domain)),
  });

  app.post('/api/domains/:id/verify', {
    schema: {
      tags,
      summary: 'Check the domain’s DNS TXT record and verify it (admin)',
      description:
        `Looks up TXT at \`${domainTxtName('<domain>')}\` for \`${DOMAIN_TXT_PREFIX}<token>\`. 422 ` +
        '`txt_record_not_found`, `txt_record_mismatch` or `dns_unavailable` with the reason; 409 ' +
        '`domain_verified_elsewhere`; 429 past ' +
        `${DNS_CHECKS_PER_MINUTE} checks a minute per organization. A verified domain answers 200 as it is.`,
      params: DomainParams,
      response: { 200: OrganizationDomain, ...errorReplies(400, 401, 403, 404, 409, 422, 429) },
    },
    preValidation: admin,
    handler: async (request) => domains.verifyByDns(callerOf(request), request.params.id),
  });

  app.delete('/api/domains/:id', {
    schema: {
      tags,
      summary: 'Remove an email domain (admin)',
      params: DomainParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request, reply) => {
      await domains.remove(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  });
}
