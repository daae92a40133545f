import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Mailer } from './lib/mailer';
import type { SecretBox } from './lib/secrets';
import type { Role } from '../contract';
import type { Caches } from './caches';

/** What services need from the outside world; built once per app. */
export type Deps = {
  db: Db;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  caches: Caches;
  secrets: SecretBox;
  /**
   * The base of every link the server writes into an email or hands to a payment provider:
   * APP_URL, or where this server listens. Never the request's Host header, which the caller
   * chooses (a reset link pointing at an attacker's site).
   */
  publicUrl: () => string;
};

/** The caller of an organization-scoped service method: who, in which organization, as what. */
export type OrgCaller = { userId: string; organizationId: string; role: Role };
