import crypto from 'node:crypto';
import {
  OIDC_CALLBACK_PATH,
  SSO_MESSAGES,
  isIssuerUrl,
  ssoStartUrl,
  type SsoConnection,
  type SsoConnectionBody,
  type SsoErrorCode,
  type SsoLookupReply,
  type SsoTestReply,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { asPlatform } from '../../db/tenant-scope';
import { AppError, notFound, tooManyRequests } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import * as rateLimiter from '../../lib/rate-limiter';
import { iso } from '../../lib/time';
import { SECRET_CHANGED, auditRepository } from '../audit/audit.repository';
import type { ClientInfo } from '../auth/auth.service';
import type { DomainsService } from '../domains/domains.service';
import { membersRepository } from '../organizations/members.repository';
import { domainsRepository } from '../domains/domains.repository';
import { SsoRefusal, completeSsoSignIn, type SsoSignedIn } from './complete-sign-in';
import { SIGN_IN_REQUEST_TTL_MS, startedInThisBrowser } from './browser-binding';
import { authorizationUrl, configurationFor, discover, finishSignIn } from './oidc';
import { ssoRepository, type SsoConnectionRow } from './sso.repository';
import type { ssoConnections } from '../../db/schema';

/**
 * Sign-in page lookups and sign-in starts one address (IP) may make per minute: generous, since an
 * office behind one NAT address signs in together at nine; low enough that a script cannot list
 * the domains under single sign-on quickly or fill the requests table.
 */
export const LOOKUPS_PER_MINUTE = 120;
export const STARTS_PER_MINUTE = 300;

const invalid = (path: string, message: string) => new AppError(400, message, 'validation_error', [{ path, message }]);

/**
 * A protocol's own start (the SAML half registers one: saml/): it builds the request to the
 * provider for this state and says what the answer must be checked against.
 */
export type SsoProtocolStarter = (
  connection: SsoConnectionRow,
  request: { state: string; emailHint: string | undefined },
) => Promise<{ url: string; samlRequestId: string; acsPath: string }>;

/**
 * Where to send the browser, and the state to bind to it (browser-binding.ts): in the OIDC
 * cookie, or, for SAML, in the cookie of the organization's ACS path (`samlAcsPath`).
 */
export type SsoStartResult = { location: string; state?: string; samlAcsPath?: string };
export type SsoCallbackResult = { location: string; signedIn?: SsoSignedIn };

export function toConnectionDto(row: SsoConnectionRow, redirectUri: string): SsoConnection {
  return {
    id: row.id,
    organizationId: row.organizationId,
    protocol: row.protocol === 'saml' ? 'saml' : 'oidc',
    enabled: row.enabled,
    oidcIssuer: row.oidcIssuer,
    oidcClientId: row.oidcClientId,
    oidcClientSecretSet: Boolean(row.oidcClientSecret),
    idpMetadataUrl: row.idpMetadataUrl,
    idpEntityId: row.idpEntityId,
    idpSsoUrl: row.idpSsoUrl,
    idpCertificates: row.idpCertificates,
    allowIdpInitiated: row.allowIdpInitiated,
    defaultRole: row.defaultRole,
    adminClaim: row.adminClaim,
    adminValue: row.adminValue,
    requireSso: row.requireSso,
    breakGlassUserId: row.breakGlassUserId,
    redirectUri,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** What an audit entry keeps of a connection: its settings, the secret only as "(changed)". */
function auditedFields(row: SsoConnectionRow | undefined) {
  if (!row) return undefined;
  return {
    protocol: row.protocol,
    enabled: row.enabled,
    oidcIssuer: row.oidcIssuer,
    oidcClientId: row.oidcClientId,
    idpEntityId: row.idpEntityId,
    defaultRole: row.defaultRole,
    adminClaim: row.adminClaim,
    adminValue: row.adminValue,
    requireSso: row.requireSso,
    breakGlassUserId: row.breakGlassUserId,
  };
}

function changed(before: Record<string, unknown> | undefined, after: Record<string, unknown>) {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(after)) {
    if (!before || before[k] !== v) {
      if (before) b[k] = before[k];
      a[k] = v;
    }
  }
  return { before: before ? b : undefined, after: a };
}

export function createSsoService(
  deps: Deps,
  domains: Pick<DomainsService, 'organizationForEmail'>,
  protocols: {
    saml: SsoProtocolStarter;
    /** The SAML half's reading of the provider's metadata (pasted or by URL) into the connection's columns. */
    samlSettings: (
      body: SsoConnectionBody,
      before: SsoConnectionRow | undefined,
    ) => Promise<Partial<typeof ssoConnections.$inferInsert>>;
  },
) {
  const { db, config, secrets, log, publicUrl } = deps;
  const redirectUri = () => `${publicUrl()}${OIDC_CALLBACK_PATH}`;
  const refusedTo = (code: SsoErrorCode) => `/login?sso_error=${code}`;

  /** The enabled connection signing in this address, if its domain is verified by an organization with one. */
  async function connectionForEmail(email: string): Promise<SsoConnectionRow | undefined> {
    const holder = await domains.organizationForEmail(email);
    if (!holder) return undefined;
    const connection = await asPlatform(() => ssoRepository.findConnection(db, holder.organizationId));
    return connection?.enabled ? connection : undefined;
  }

  return {
    async get(caller: OrgCaller): Promise<SsoConnection> {
      const row = await ssoRepository.findConnection(db, caller.organizationId);
      if (!row) throw notFound(SSO_MESSAGES.notFound);
      return toConnectionDto(row, redirectUri());
    },

    /** Saves the organization's whole connection; the stored secret stays unless a new one is given. */
    async save(caller: OrgCaller, body: SsoConnectionBody): Promise<SsoConnection> {
      const { organizationId } = caller;
      if (body.protocol === 'oidc' && body.oidcIssuer && !isIssuerUrl(body.oidcIssuer, config.ssoAllowHttpIssuers)) {
        throw invalid('oidcIssuer', SSO_MESSAGES.issuerInvalid);
      }
      // The provider's metadata is read (and fetched) before the transaction: a slow provider holds no lock.
      const saml =
        body.protocol === 'saml'
          ? await protocols.samlSettings(body, await ssoRepository.findConnection(db, organizationId))
          : {};
      return db.transaction(async (tx) => {
        const before = await ssoRepository.findConnection(tx, organizationId);
        const secret = body.oidcClientSecret
          ? secrets.encrypt(body.oidcClientSecret)
          : (before?.oidcClientSecret ?? null);
        if (body.protocol === 'oidc' && !secret) throw invalid('oidcClientSecret', SSO_MESSAGES.clientSecretRequired);
        if (body.breakGlassUserId) {
          const role = await membersRepository.findRole(tx, organizationId, body.breakGlassUserId);
          // Someone of another organization (or nobody) is not found here, as any other row.
          if (!role) throw notFound(SSO_MESSAGES.breakGlassNotFound);
          if (role !== 'admin') throw invalid('breakGlassUserId', SSO_MESSAGES.breakGlassNotAdmin);
        }
        if (body.enabled && (await domainsRepository.list(tx, organizationId)).every((d) => d.status !== 'verified')) {
          throw invalid('enabled', SSO_MESSAGES.enableNeedsDomain);
        }
        const row = await ssoRepository.upsertConnection(tx, organizationId, {
          protocol: body.protocol,
          enabled: body.enabled,
          oidcIssuer: body.protocol === 'oidc' ? (body.oidcIssuer ?? null) : (before?.oidcIssuer ?? null),
          oidcClientId: body.protocol === 'oidc' ? (body.oidcClientId ?? null) : (before?.oidcClientId ?? null),
          oidcClientSecret: secret,
          allowIdpInitiated: body.allowIdpInitiated ?? false,
          defaultRole: body.defaultRole ?? 'member',
          adminClaim: body.adminClaim ?? null,
          adminValue: body.adminValue ?? null,
          requireSso: body.requireSso ?? false,
          breakGlassUserId: body.breakGlassUserId ?? null,
          ...saml,
          createdBy: caller.userId,
          updatedAt: new Date(),
        });
        const diff = changed(auditedFields(before), auditedFields(row)!);
        if (body.oidcClientSecret) diff.after.oidcClientSecret = SECRET_CHANGED;
        await auditRepository.record(tx, {
          organizationId,
          actorId: caller.userId,
          action: 'sso.connection_saved',
          targetType: 'sso_connection',
          targetId: row.id,
          targetLabel: row.protocol === 'oidc' ? (row.oidcIssuer ?? 'OpenID Connect') : (row.idpEntityId ?? 'SAML'),
          before: diff.before,
          after: diff.after,
        });
        return toConnectionDto(row, redirectUri());
      });
    },

    async remove(caller: OrgCaller): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await ssoRepository.deleteConnection(tx, caller.organizationId);
        if (!row) throw notFound(SSO_MESSAGES.notFound);
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'sso.connection_removed',
          targetType: 'sso_connection',
          targetId: row.id,
          targetLabel: row.protocol === 'oidc' ? (row.oidcIssuer ?? 'OpenID Connect') : (row.idpEntityId ?? 'SAML'),
          before: auditedFields(row),
        });
      });
    },

    /** Reads the provider's discovery document (the typed issuer, else the saved one). */
    async test(caller: OrgCaller, issuer: string | null | undefined): Promise<SsoTestReply> {
      const limited = await rateLimiter.hit(db, `sso:test:${caller.organizationId}`, 10, 60);
      if (!limited.allowed) throw tooManyRequests(SSO_MESSAGES.lookupRateLimited, limited.retryAfterSeconds);
      const target = issuer ?? (await ssoRepository.findConnection(db, caller.organizationId))?.oidcIssuer;
      if (!target) throw invalid('oidcIssuer', SSO_MESSAGES.issuerRequired);
      if (!isIssuerUrl(target, config.ssoAllowHttpIssuers)) throw invalid('oidcIssuer', SSO_MESSAGES.issuerInvalid);
      try {
        const found = await discover(config, target);
        return { ok: true, message: `Found the provider ${found.issuer}`, ...found };
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        return { ok: false, message: SSO_MESSAGES.discoveryFailed(reason), issuer: null, authorizationEndpoint: null };
      }
    },

    /** The sign-in page's question (rate limited per address; two index lookups, no scan). */
    async lookup(email: string, client: ClientInfo): Promise<SsoLookupReply> {
      const limited = await rateLimiter.hit(db, `sso:lookup:ip:${client.ip}`, LOOKUPS_PER_MINUTE, 60);
      if (!limited.allowed) throw tooManyRequests(SSO_MESSAGES.lookupRateLimited, limited.retryAfterSeconds);
      const connection = await connectionForEmail(email);
      if (!connection) return { sso: false, required: false, startUrl: null };
      return { sso: true, required: connection.requireSso, startUrl: ssoStartUrl(email) };
    },

    /**
     * Sends the browser to the address's provider with a new single-use request (state, nonce,
     * PKCE). The state also goes into a cookie of this browser (the route sets it): a callback
     * another browser started is refused.
     */
    async start(email: string, invitationToken: string | undefined, client: ClientInfo): Promise<SsoStartResult> {
      const limited = await rateLimiter.hit(db, `sso:start:ip:${client.ip}`, STARTS_PER_MINUTE, 60);
      if (!limited.allowed) return { location: refusedTo('unavailable') };
      const connection = await connectionForEmail(email);
      if (!connection) return { location: refusedTo('not_available') };
      const state = crypto.randomBytes(32).toString('base64url');
      const base = {
        organizationId: connection.organizationId,
        connectionId: connection.id,
        stateHash: hashToken(state),
        emailHint: email,
        invitationToken: invitationToken ?? null,
        expiresAt: new Date(Date.now() + SIGN_IN_REQUEST_TTL_MS),
      };
      try {
        if (connection.protocol === 'saml') {
          const started = await protocols.saml(connection, { state, emailHint: email });
          await asPlatform(() =>
            ssoRepository.insertSignInRequest(db, { ...base, samlRequestId: started.samlRequestId }),
          );
          return { location: started.url, state, samlAcsPath: started.acsPath };
        }
        const configuration = await configurationFor(deps, connection);
        const oidc = await authorizationUrl(configuration, redirectUri(), email);
        await asPlatform(() =>
          ssoRepository.insertSignInRequest(db, {
            ...base,
            stateHash: hashToken(oidc.state),
            nonce: oidc.nonce,
            codeVerifier: oidc.codeVerifier,
          }),
        );
        return { location: oidc.url.href, state: oidc.state };
      } catch (err) {
        log.warn({ err, organizationId: connection.organizationId }, 'single sign-on could not start');
        return { location: refusedTo('unavailable') };
      }
    },

    /**
     * The provider's answer. Every refusal goes to /login with its code (and is logged with the
     * reason); nothing is created by a refused answer.
     */
    async oidcCallback(
      callbackUrl: URL,
      browserState: string | undefined,
      client: ClientInfo,
    ): Promise<SsoCallbackResult> {
      const state = callbackUrl.searchParams.get('state');
      try {
        if (!state) throw new SsoRefusal('expired', 'no state');
        // The request is taken (single use) whatever follows: a replayed state finds nothing.
        const request = await asPlatform(() => ssoRepository.takeSignInRequest(db, hashToken(state)));
        if (!request) throw new SsoRefusal('expired', 'unknown, used or expired state');
        if (!startedInThisBrowser(browserState, state)) throw new SsoRefusal('expired', 'started in another browser');
        if (callbackUrl.searchParams.get('error')) {
          throw new SsoRefusal('provider_error', callbackUrl.searchParams.get('error') ?? undefined);
        }
        const connection = await asPlatform(() =>
          ssoRepository.findConnectionById(db, request.organizationId, request.connectionId),
        );
        if (!connection?.enabled || connection.protocol !== 'oidc') throw new SsoRefusal('not_available');
        if (!request.nonce || !request.codeVerifier) throw new SsoRefusal('refused', 'not an OIDC request');
        const code = callbackUrl.searchParams.get('code');
        if (!code) throw new SsoRefusal('refused', 'no code');
        // A code is spent once, whatever the provider would say of it a second time.
        const fresh = await asPlatform(() =>
          ssoRepository.markAssertionUsed(db, {
            organizationId: connection.organizationId,
            connectionId: connection.id,
            assertionId: `oidc-code:${hashToken(code)}`,
            expiresAt: new Date(Date.now() + SIGN_IN_REQUEST_TTL_MS),
          }),
        );
        if (!fresh) throw new SsoRefusal('refused', 'code replayed');
        let claims;
        try {
          const configuration = await configurationFor(deps, connection);
          claims = await finishSignIn(configuration, callbackUrl, {
            state,
            nonce: request.nonce,
            codeVerifier: request.codeVerifier,
          });
        } catch (err) {
          throw new SsoRefusal('refused', err instanceof Error ? `${err.name}: ${err.message}` : String(err));
        }
        // An address the provider itself says is unproven is not vouched for.
        if (claims.emailVerified === false) throw new SsoRefusal('unverified_domain', 'email_verified is false');
        const signedIn = await completeSsoSignIn(
          { deps, domains, client },
          {
            connection,
            subject: claims.subject,
            email: claims.email,
            names: { firstName: claims.firstName, lastName: claims.lastName },
            groups: claims.groups,
            claims: claims.claims,
            invitationToken: request.invitationToken,
          },
        );
        return { location: '/', signedIn };
      } catch (err) {
        if (err instanceof SsoRefusal) {
          log.warn({ code: err.code, detail: err.detail }, 'single sign-on refused');
          return { location: refusedTo(err.code) };
        }
        log.error({ err }, 'single sign-on failed');
        return { location: refusedTo('unavailable') };
      }
    },

    /**
     * Password sign-in's question (auth asks it through app.ts): refused when the address's domain
     * is under an organization that requires single sign-on, unless this is its break-glass admin.
     */
    async passwordRefusal(user: { id?: string; email: string }): Promise<string | undefined> {
      const connection = await connectionForEmail(user.email);
      if (!connection?.requireSso) return undefined;
      if (user.id && connection.breakGlassUserId === user.id) return undefined;
      return SSO_MESSAGES.passwordRefused;
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
