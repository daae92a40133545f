import pino from 'pino';
import { buildApp } from './app';
import type { Config } from './config';
import { connectDatabase } from './db/client';
import { startEmbeddedPostgres, type EmbeddedServer } from './db/embedded';
import { runMigrations } from './db/migrate';
import { keepStatistics } from './db/statistics';
import { appRoleFor } from './db/row-level-security';
import type { Mailer } from './lib/mailer';
import { seedDemoIfEmpty } from './modules/demo/demo-seed';
import { startHousekeeping } from './modules/auth/housekeeping';
import { deleteOldNotificationJobs } from './modules/notifications/retention';
import { portalRepository } from './modules/portal/portal.repository';
import { expireOneTimePlans } from './modules/billing/plan-expiry';
import { startRosterSchedule } from './modules/roster/roster.schedule';
import { idempotencyRepository } from './modules/mail-items/idempotency';
import { ssoRepository } from './modules/sso/sso.repository';
import { scimRepository } from './modules/scim/scim.repository';
import { SCIM_REQUEST_RETENTION_DAYS } from '../contract';

export type RunningServer = {
  url: string;
  stop: () => Promise<void>;
  demoLogin?: { email: string; password: string };
  /** The database it runs on (the browser tests set up states no screen reaches quickly, like an ended trial). */
  databaseUrl: string;
};

/**
 * config -> database (DATABASE_URL or embedded) -> migrations -> optional demo seed -> listen.
 * Used by main.ts, the browser tests and the benchmarks alike.
 */
export async function startServer(config: Config, options: { mailer?: Mailer } = {}): Promise<RunningServer> {
  const log = pino({ level: config.logLevel });
  let embedded: EmbeddedServer | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const started = Date.now();
    embedded = await startEmbeddedPostgres(config.dataDir, (m) => log.debug({ component: 'postgres' }, m));
    databaseUrl = embedded.url;
    log.info({ dataDir: config.dataDir, ms: Date.now() - started }, 'embedded PostgreSQL started');
  }
  // Migrations run as the connecting user; the application then acts as a role held by
  // row-level security (db/row-level-security.ts). Behind a transaction pooler, they and the
  // statistics check take the direct connection (DATABASE_LISTEN_URL, required then): DDL and
  // ANALYZE gain nothing from the pooler, and a migration must not wait in its queue (decision 038).
  const pooler = config.databasePooler;
  const directUrl = (pooler && config.databaseListenUrl) || databaseUrl;
  const migrator = connectDatabase(directUrl, 1);
  try {
    await runMigrations(migrator.db, config.rootDir);
  } finally {
    await migrator.close();
  }
  const stopStatistics = await keepStatistics(directUrl, config.statisticsCheckMs, log);
  const database = connectDatabase(databaseUrl, config.databasePoolSize, {
    role: await appRoleFor(databaseUrl),
    pooler,
  });
  try {
    // Fails the start, not the first request, if the application's role cannot be taken.
    await database.pool.query('select 1');
    const demoLogin = config.seedDemo ? await seedDemoIfEmpty(database.db) : undefined;
    const app = await buildApp({ config, db: database.db, mailer: options.mailer });
    if (config.secretsKeyPrevious.length > 0) {
      const rotated = await app.reencryptSecrets();
      // Once this reports nothing left to re-encrypt, SECRETS_KEY_PREVIOUS can go.
      if (rotated.unreadable > 0)
        log.warn(rotated, 'some stored secrets (integrations, roster sources) fit no key: re-enter them');
      else log.info(rotated, 'integration and roster secrets re-encrypted with SECRETS_KEY');
    }
    const address = await app.listen({ host: config.host, port: config.port });
    const stopHousekeeping = startHousekeeping(database.db, app.log, [
      () => deleteOldNotificationJobs(database.db, config.notificationRetentionDays),
      () => expireOneTimePlans(database.db),
      () => portalRepository.sweepExpired(database.db),
      () => idempotencyRepository.purgeExpired(database.db.$client),
      () => ssoRepository.purgeExpired(database.db),
      () => scimRepository.purgeRequests(database.db, new Date(Date.now() - SCIM_REQUEST_RETENTION_DAYS * 86_400_000)),
    ]);
    const worker = config.notificationsWorker ? app.notifications.createWorker() : undefined;
    worker?.start();
    // The roster's schedule ticks where the worker runs; its claim runs each due source once.
    const stopRoster = config.notificationsWorker ? startRosterSchedule(app.roster, app.log) : undefined;
    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        stopHousekeeping();
        stopRoster?.();
        // The worker stops claiming and waits for its sends in flight to be recorded, while the
        // HTTP server drains; both before the database closes.
        await Promise.all([
          worker?.stop(),
          (async () => {
            await app.close(); // stops accepting and waits for open connections
            await app.inFlight.drained(10_000);
          })(),
        ]);
        await stopStatistics();
        await database.close();
        await embedded?.stop();
      })());
    return { url: address.replace('[::1]', 'localhost'), stop, demoLogin, databaseUrl };
  } catch (err) {
    await stopStatistics().catch(() => undefined);
    await database.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw err;
  }
}
