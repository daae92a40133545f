import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { fastifyTrustProxy, listeningUrl, startupWarnings, type Config } from './config';
import type { Db } from './db/client';
import type { Deps } from './context';
import { createCaches, type Caches } from './caches';
import { createChangeFeed, type ChangeFeed } from './lib/change-feed';
import { trackInFlight } from './lib/in-flight';
import type { App } from './http';
import { createMailer, type Mailer } from './lib/mailer';
import { createSecretBox, loadSecretKeys } from './lib/secrets';
import { reencryptIntegrationSecrets, type RotationResult } from './modules/integrations/secret-rotation';
import { registerErrorHandlers } from './plugins/errors';
import { rejectNulCharacters } from './plugins/nul-guard';
import { refuseCrossSiteWrites } from './plugins/csrf';
import { boundedJsonBodies, DEFAULT_BODY_LIMIT_BYTES } from './plugins/json-body';
import { sessionPlugin } from './plugins/session';
import { organizationPlugin } from './plugins/organization';
import { recipientSessionPlugin } from './plugins/recipient-session';
import { securityHeaders } from './plugins/security-headers';
import { createAuthService } from './modules/auth/auth.service';
import { authRoutes } from './modules/auth/auth.routes';
import { createTwoFactorService } from './modules/auth/two-factor.service';
import { twoFactorRoutes } from './modules/auth/two-factor.routes';
import { sessionsRepository } from './modules/auth/sessions.repository';
import { createOrganizationsService } from './modules/organizations/organizations.service';
import { organizationsRoutes } from './modules/organizations/organizations.routes';
import { membersRepository } from './modules/organizations/members.repository';
import { createDashboardService } from './modules/dashboard/dashboard.service';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { createOperationsService } from './modules/operations/operations.service';
import { instrumentRequests, operationsRoutes } from './modules/operations/operations.routes';
import { createMetrics } from './modules/operations/metrics';
import { createRecipientsService } from './modules/recipients/recipients.service';
import { recipientsRoutes } from './modules/recipients/recipients.routes';
import { createPrivacyService } from './modules/privacy/privacy.service';
import { privacyRoutes } from './modules/privacy/privacy.routes';
import { createOrganizationSettingsService } from './modules/settings/settings.service';
import { organizationSettingsRoutes } from './modules/settings/settings.routes';
import { createMailroomsService } from './modules/mailrooms/mailrooms.service';
import { mailroomsRoutes } from './modules/mailrooms/mailrooms.routes';
import { createMailItemsService } from './modules/mail-items/mail-items.service';
import { mailItemsRoutes } from './modules/mail-items/mail-items.routes';
import { createPhotosService } from './modules/photos/photos.service';
import { createHistoryService } from './modules/history/history.service';
import { historyRoutes } from './modules/history/history.routes';
import { createAnalyticsService } from './modules/analytics/analytics.service';
import { analyticsRoutes } from './modules/analytics/analytics.routes';
import { photosRoutes } from './modules/photos/photos.routes';
import { createInvitationsService } from './modules/invitations/invitations.service';
import { invitationsRoutes } from './modules/invitations/invitations.routes';
import { createAuditService } from './modules/audit/audit.service';
import { auditRoutes } from './modules/audit/audit.routes';
import { createNotifications } from './modules/notifications/worker';
import { createNotificationsService } from './modules/notifications/notifications.service';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { createApiKeyAuth } from './modules/integrations/api-keys';
import { createIntegrationsService } from './modules/integrations/integrations.service';
import { integrationsRoutes } from './modules/integrations/integrations.routes';
import { createBillingService } from './modules/billing/billing.service';
import { billingRoutes } from './modules/billing/billing.routes';
import { createStripeWebhooks } from './modules/billing/stripe-webhooks';
import { createStripeGateway } from './modules/billing/stripe.gateway';
import { createPaypalGateway } from './modules/billing/paypal.gateway';
import { createSuperAdminService } from './modules/super-admin/super-admin.service';
import { createRosterService, type RosterService } from './modules/roster/roster.service';
import { rosterRoutes } from './modules/roster/roster.routes';
import { superAdminRoutes } from './modules/super-admin/super-admin.routes';
import { createDomainsService } from './modules/domains/domains.service';
import { domainsRoutes } from './modules/domains/domains.routes';
import { createSsoService } from './modules/sso/sso.service';
import { ssoRoutes } from './modules/sso/sso.routes';
import { createSamlService } from './modules/sso/saml/saml.service';
import { samlRoutes } from './modules/sso/saml/saml.routes';
import { createScimTokensService } from './modules/scim/scim-tokens.service';
import { createScimService } from './modules/scim/scim.service';
import { scimProtocolRoutes, scimTokenRoutes } from './modules/scim/scim.routes';
import { createPickupsService } from './modules/pickups/pickups.service';
import { pickupsRoutes } from './modules/pickups/pickups.routes';
import { createExpectedPackagesService } from './modules/expected-packages/expected-packages.service';
import { expectedPackagesRoutes } from './modules/expected-packages/expected-packages.routes';
import { expectedPackagesPortalRoutes } from './modules/expected-packages/expected-packages.portal-routes';
import { createHandoversService } from './modules/mail-items/handovers.service';
import { handoversRoutes } from './modules/mail-items/handovers.routes';
import { portalRepository } from './modules/portal/portal.repository';
import { createPortalService, throttlePortalWrite } from './modules/portal/portal.service';
import { portalRoutes } from './modules/portal/portal.routes';
import { createLiveHub, type LiveHub } from './modules/live/live.hub';
import { liveRoutes } from './modules/live/live.routes';
import { connectReplica, createReplicaReads, primaryReads, type ReplicaReads } from './db/replica';

export type BuildOptions = {
  config: Config;
  db: Db;
  mailer?: Mailer;
  /** Where the log lines go (stdout unless given; tests read what an instance logs at start). */
  logStream?: { write: (line: string) => void };
};

/** The whole HTTP application; main.ts listens with it, tests inject into it. */
export async function buildApp({ config, db, mailer, logStream }: BuildOptions) {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-api-key"]'],
      ...(logStream ? { stream: logStream } : {}),
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,100}$/.test(given) ? given : crypto.randomUUID();
    },
    bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
    trustProxy: fastifyTrustProxy(config.trustProxy),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // First, so that every reply carries the headers, the refusals of the hooks below included.
  await app.register(securityHeaders, { production: config.env === 'production', paypal: config.paypal !== null });
  registerErrorHandlers(app);
  rejectNulCharacters(app);
  refuseCrossSiteWrites(app, config.appUrl);
  boundedJsonBodies(app);
  // JSON only: a cross-site HTML form can send text/plain without a preflight, never JSON.
  app.removeContentTypeParser('text/plain');
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.decorate('inFlight', trackInFlight(app));

  const secretKeys = loadSecretKeys(config.secretsKey, config.secretsKeyPrevious, config.dataDir);
  const caches = createCaches(config.cacheTtlMs);
  // What this instance tells the others on the same database and hears from them (decision 018).
  // The caches no longer depend on it (decision 037: entries are checked against the data
  // version); it carries the live desk's events (issue 29), and readiness reports it.
  const changeFeed = createChangeFeed({
    db,
    log: app.log,
    connection: config.databaseListenUrl ? { connectionString: config.databaseListenUrl } : undefined,
  });
  app.decorate('changeFeed', changeFeed);
  app.decorate('caches', caches);
  app.addHook('onClose', () => changeFeed.close());
  // History, its statistics, the export and Reports read from the replica when it has replayed
  // what the caller's request knows of (decision 038).
  const replica = config.databaseReplicaUrl
    ? await connectReplica(config.databaseReplicaUrl, config.databasePoolSize, config.databasePooler)
    : undefined;
  const reads = replica ? createReplicaReads(db, replica.db) : primaryReads(db);
  if (replica) app.addHook('onClose', () => replica.close());
  app.decorate('replicaReads', reads);
  // Prometheus metrics only when METRICS_TOKEN asks for them: no registry and no hook otherwise.
  const metrics = config.metricsToken ? createMetrics({ db, caches, changeFeed }) : undefined;
  instrumentRequests(app, metrics);
  const deps: Deps = {
    db,
    reads,
    config,
    mailer: mailer ?? createMailer(config.smtpUrl, config.mailFrom, app.log),
    log: app.log,
    caches,
    secrets: createSecretBox(secretKeys),
    publicUrl: () => {
      if (config.appUrl) return config.appUrl.replace(/\/+$/, '');
      const address = app.server.address();
      return listeningUrl(config.host, address && typeof address === 'object' ? address.port : config.port);
    },
  };

  await app.register(cookie);
  // Replies compressed when the client offers it (a page of 100 mail items: 70 KB of JSON, 12 KB
  // gzipped). Moderate levels: brotli 4 and gzip 4 cost under a millisecond a page, about the
  // size of the top levels (brotli 11 takes 100 ms).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 4 },
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Pigeonhole API',
        version: '1.0.0',
        description:
          'Mailroom and package management. Organization-scoped calls need the x-organization-id header.\n\n' +
          '**API keys.** Another system can call the organization-scoped endpoints (those taking ' +
          'x-organization-id: log mail items, read their statuses, recipients…) with an API key of the ' +
          "organization's API integration (Integrations → API → create key; shown once): send " +
          '`Authorization: Bearer pk_…` (or `x-api-key: pk_…`), no session cookie. The key acts for its ' +
          'organization only, with the member role, as the admin who created it: x-organization-id may be ' +
          "left out and, when sent, must name the key's organization (else 403); admin calls answer 403; " +
          'calls about an account (/api/auth/user, /api/change-password, /api/organizations, invitations) ' +
          'answer 403 api_key_not_allowed. A revoked key, a switched-off integration or a creator who left ' +
          'the organization answer 401 invalid_api_key.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'pigeonhole.sid' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'pk_…',
            description: "An API key of the organization's API integration: `Authorization: Bearer pk_…`.",
          },
          apiKeyHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'x-api-key',
            description: 'The same API key in the x-api-key header.',
          },
        },
      },
      security: [{ session: [] }, { apiKey: [] }, { apiKeyHeader: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // Tags start folded: with every one of 130 operations listed open, Swagger UI 5 stopped
  // rendering after the seventh (the e2e journey caught it); folded, each tag opens on a click.
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'none' } });
  const apiKeys = createApiKeyAuth(db);
  await app.register(sessionPlugin, {
    config,
    lookups: {
      findLiveSession: (sid, organizationId) => sessionsRepository.findLive(db, sid, organizationId),
      extendSession: (sid, expire) => sessionsRepository.extend(db, sid, expire),
      authenticateApiKey: (key) => apiKeys.authenticate(key),
    },
  });
  await app.register(organizationPlugin, {
    lookups: { findRole: (organizationId, userId) => membersRepository.findRole(db, organizationId, userId) },
  });

  // The recipient's own page (decision 032): a principal of its own, with its own cookie.
  await app.register(recipientSessionPlugin, {
    config,
    lookups: {
      findLive: (sid) => portalRepository.findLiveSession(db, sid),
      extend: (sid, expire) => portalRepository.extendSession(db, sid, expire),
      throttleWrite: (caller) => throttlePortalWrite(db, caller),
    },
  });

  // An organization's email domains (decision 058): its admins prove them, the console vouches.
  const domains = createDomainsService(deps);
  // Single sign-on (decision 059): password sign-in asks it whether the address must use it.
  // SAML 2.0 (decision 062): its start and its reading of the provider's metadata plug into sso.
  const saml = createSamlService(deps, domains);
  const sso = createSsoService(deps, domains, {
    saml: (connection, request) => saml.startRequest(connection, request),
    samlSettings: (body, before) => saml.resolveSettings(body, before),
  });
  const twoFactor = createTwoFactorService(deps);
  authRoutes(app, createAuthService(deps, twoFactor, { passwordRefusal: sso.passwordRefusal }));
  twoFactorRoutes(app, twoFactor);
  organizationsRoutes(app, createOrganizationsService(deps));
  dashboardRoutes(app, createDashboardService(deps));
  recipientsRoutes(app, createRecipientsService(deps));
  privacyRoutes(app, createPrivacyService(deps));
  const pickups = createPickupsService(deps);
  pickupsRoutes(app, pickups);
  const expectedPackages = createExpectedPackagesService(deps);
  expectedPackagesRoutes(app, expectedPackages);
  organizationSettingsRoutes(app, createOrganizationSettingsService(deps));
  mailroomsRoutes(app, createMailroomsService(deps));
  const mailItems = createMailItemsService(deps);
  mailItemsRoutes(app, mailItems, config.bodyLimitBytes);
  const portalLinksSent = new Set<Promise<void>>();
  portalRoutes(app, createPortalService(deps, { pickups, mailItems }), {
    afterLinkRequest: (sent) => {
      portalLinksSent.add(sent);
      void sent.finally(() => portalLinksSent.delete(sent));
    },
  });
  expectedPackagesPortalRoutes(app, expectedPackages);
  // Links asked for go out after the reply; tests (and a closing server) wait for them.
  app.decorate('portalLinksSent', async () => {
    await Promise.allSettled([...portalLinksSent]);
  });
  handoversRoutes(app, createHandoversService(deps), config.bodyLimitBytes);
  photosRoutes(app, createPhotosService(deps));
  historyRoutes(app, createHistoryService(deps));
  analyticsRoutes(app, createAnalyticsService(deps));
  invitationsRoutes(app, createInvitationsService(deps));
  auditRoutes(app, createAuditService(deps));
  // The notification pipeline: its worker is started by server.ts (NOTIFICATIONS_WORKER), or by tests.
  const notifications = createNotifications({
    ...deps,
    secretKeys,
    requestsInFlight: () => app.inFlight.count,
  });
  app.decorate('notifications', notifications);
  operationsRoutes(
    app,
    createOperationsService({
      db,
      changeFeed,
      runsNotificationWorker: config.notificationsWorker,
      notificationWorkers: notifications.runningWorkers,
    }),
    metrics && config.metricsToken ? { metrics, token: config.metricsToken } : undefined,
  );
  notificationsRoutes(app, createNotificationsService(deps, notifications.unsubscribeKeys));
  integrationsRoutes(app, createIntegrationsService(deps));
  // The live desk's streams (decision 043): fed by the change feed, ended before the server closes
  // (a stream never finishes by itself, and closing waits for open responses).
  const live = createLiveHub({
    changeFeed,
    log: app.log,
    caps: config.liveStreams,
    checkSession: async (sid, organizationId) => {
      const row = await sessionsRepository.findLive(db, sid, organizationId);
      return row && row.expire.getTime() > Date.now() ? row.role : undefined;
    },
  });
  app.decorate('liveHub', live);
  app.addHook('preClose', async () => live.close());
  liveRoutes(app, live);
  for (const warning of startupWarnings(config)) app.log.error(warning);
  // A payment choice without keys runs against the local demo provider only with DEMO_PAYMENTS
  // (decision 028); otherwise it is not offered (README: Billing).
  const gateways = {
    stripe: config.stripe ? createStripeGateway(config.stripe) : null,
    paypal: config.paypal ? createPaypalGateway(config.paypal) : null,
  };
  billingRoutes(app, createBillingService(deps, gateways), createStripeWebhooks(deps, gateways.stripe));
  domainsRoutes(app, domains);
  ssoRoutes(app, sso, deps);
  samlRoutes(app, saml, deps);
  superAdminRoutes(app, createSuperAdminService(deps), domains);
  // The resident roster (decision 061): server.ts starts its schedule beside the worker.
  app.decorate('roster', createRosterService(deps));
  rosterRoutes(app, app.roster);
  // SCIM provisioning of recipients (decision 060): tokens in Settings, the protocol at /scim/v2.
  const scimTokens = createScimTokensService(deps);
  scimTokenRoutes(app, scimTokens);
  scimProtocolRoutes(app, scimTokens, createScimService(deps), () => `${deps.publicUrl()}/scim/v2`);
  app.decorate('reencryptSecrets', () => reencryptIntegrationSecrets(db, deps.secrets));

  await serveClient(app, path.join(config.rootDir, 'dist', 'client'));
  await changeFeed.start();
  return app;
}

/**
 * index.html is revalidated on every load, so a deploy reaches the desk at once; the hashed
 * files under assets/ never change under their name; anything else (the icon) may wait an hour.
 */
function cacheControlOf(file: string): string {
  // The service worker too: a deploy's new worker must be seen at the next load (decision 044).
  if (file.endsWith('.html') || file === 'sw.js') return 'no-cache';
  if (file.startsWith(`assets${path.sep}`)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

/**
 * The built web client, with every unknown non-API GET answering index.html so client-side
 * routes survive a reload. Unknown API paths answer JSON 404.
 */
async function serveClient(app: App, clientDir: string) {
  const built = fs.existsSync(path.join(clientDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      // One rule for every file, however it is reached (its own route, /assets/*, the fallback).
      cacheControl: false,
      setHeaders: (reply, filePath) =>
        reply.header('cache-control', cacheControlOf(path.relative(clientDir, filePath))),
    });
    app.get('/assets/*', (request, reply) =>
      reply.sendFile(path.join('assets', (request.params as { '*': string })['*'])),
    );
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET') {
      return reply
        .status(404)
        .send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: 'not_found' });
    }
    if (!built) {
      return reply
        .type('text/plain')
        .status(503)
        .send('The web client is not built yet. Run `npm run build` (npm start does it for you).');
    }
    return reply.sendFile('index.html');
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** SECRETS_KEY rotation: rewrites stored integration secrets with the current key. */
    reencryptSecrets: () => Promise<RotationResult>;
    /** The resident roster's runs and schedule tick (modules/roster). */
    roster: RosterService;
    /** LISTEN/NOTIFY between the instances on one database (lib/change-feed.ts). */
    changeFeed: ChangeFeed;
    /** Resolves when the sign-in links asked for so far have gone out (decision 032). */
    portalLinksSent: () => Promise<void>;
    /** This instance's caches (caches.ts); services reach them through their deps. */
    caches: Caches;
    /** The live desk's open streams on this instance (modules/live). */
    liveHub: LiveHub;
    /** Where History and Reports read, and how often the replica served them (db/replica.ts). */
    replicaReads: ReplicaReads;
  }
}
