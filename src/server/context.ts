import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Mailer } from './lib/mailer';
import type { SecretBox } from './lib/secrets';
import type { Role } from '../contract';
import type { users } from './db/schema';
import type { Caches } from './caches';
import type { ReplicaReads } from './db/replica';

/** What services need from the outside world; built once per app. */
export type Deps = {
  db: Db;
  /** Reads that may go to the replica (History, exports, Reports): db/replica.ts, decision 038. */
  reads: ReplicaReads;
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
export type OrgCaller = {
  userId: string;
  organizationId: string;
  role: Role;
  /**
   * The organization's data version read with the caller's session or key (decision 037): the
   * caches serve this request only what was built at it. Absent (the organization came from the
   * path, or the caller is not a request): the caches are bypassed.
   */
  dataVersion?: string;
  /**
   * The API key the request came with (an integration acting as the key's creator); absent for a
   * person's session. What it does is recorded as the key's doing, not only the creator's (decision 050).
   */
  apiKeyId?: string;
};

/**
 * A recipient signed in to their own page (issue 26, by a magic link): never a user, never a
 * member. Every portal service method takes it first and reads only this recipient's rows in this
 * organization.
 */
export type RecipientCaller = { organizationId: string; recipientId: string };

/**
 * The user a request acts as (a session's, or an API key's creator): their row as the database
 * holds it. Defined here, below the modules, so the plugins and the caches need none of them.
 */
export type SessionUser = typeof users.$inferSelect;

/** An API key that may be used: its organization, the user it acts as, and when it was last stamped. */
export type ApiKeyPrincipal = {
  apiKeyId: string;
  integrationId: string;
  organizationId: string;
  user: SessionUser;
  /** Its organization's data version, read with the key (decision 037). */
  dataVersion: string;
};

/**
 * What the session plugin asks of the modules, handed to it by app.ts (auth's sessions and
 * integrations' API keys): a plugin never imports a module.
 */
export type SessionLookups = {
  /** The live session and its user, with the caller's role in `organizationId` when one is named. */
  findLiveSession: (
    sid: string,
    organizationId?: string,
  ) => Promise<{ expire: Date; user: SessionUser; role: Role | null; dataVersion: string | null } | undefined>;
  /** Slides the session's expiry. */
  extendSession: (sid: string, expire: Date) => Promise<void>;
  /** The key's principal, or undefined when the key is unknown or may not be used. */
  authenticateApiKey: (key: string) => Promise<ApiKeyPrincipal | undefined>;
};

/** What the organization plugin asks of the modules (organizations' members), handed to it by app.ts. */
export type MembershipLookups = {
  /** The user's role in the organization; undefined when they are not a member. */
  findRole: (organizationId: string, userId: string) => Promise<Role | undefined>;
};
