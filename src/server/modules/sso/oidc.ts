import * as client from 'openid-client';
import type { Config } from '../../config';
import type { SecretBox } from '../../lib/secrets';
import { outboundFetch } from '../../lib/outbound';
import type { SsoConnectionRow } from './sso.repository';

/**
 * The OpenID Connect half (decision 059), all protocol work done by openid-client (panva's
 * certified relying party): discovery, the authorization URL with state, nonce and PKCE, the code
 * exchange and the ID token's checks (signature by the provider's keys, issuer, audience, expiry,
 * nonce), and the RFC 9207 `iss` of the callback. Nothing here is hand-written protocol code.
 */

const DISCOVERY_SUFFIX = '/.well-known/openid-configuration';
/** A provider slower than this is reported, not waited on (sign-in and "Test" both). */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** Discovery documents are kept this long per connection version: a sign-in costs no extra round trip. */
const DISCOVERY_CACHE_MS = 10 * 60_000;

/**
 * The issuer an admin typed: its discovery document's URL is taken back to the issuer, so
 * openid-client still checks that the document's `issuer` is that URL (passing the document's URL
 * itself turns the check off).
 */
export function issuerOf(input: string): URL {
  const trimmed = input.trim().replace(/\/+$/, '');
  return new URL(trimmed.endsWith(DISCOVERY_SUFFIX) ? trimmed.slice(0, -DISCOVERY_SUFFIX.length) : trimmed);
}

export type OidcDeps = { config: Config; secrets: SecretBox };

/** The provider's requests go through the SSRF guard (private addresses refused unless allowed). */
function discoveryOptions(config: Config): client.DiscoveryRequestOptions {
  const guarded = outboundFetch(config.allowPrivateTargets);
  return {
    timeout: PROVIDER_TIMEOUT_SECONDS,
    [client.customFetch]: (url, options) =>
      guarded(url, { ...options, redirect: 'manual' } as Parameters<typeof guarded>[1]) as unknown as Promise<Response>,
    execute: config.ssoAllowHttpIssuers ? [client.allowInsecureRequests] : [],
  };
}

/** What "Test" shows: the provider's discovery document, read without any client credential. */
export async function discover(config: Config, issuer: string) {
  const found = await client.discovery(
    issuerOf(issuer),
    'pigeonhole-test',
    undefined,
    client.None(),
    discoveryOptions(config),
  );
  const meta = found.serverMetadata();
  return { issuer: meta.issuer, authorizationEndpoint: meta.authorization_endpoint ?? null };
}

const configurations = new Map<string, { at: number; configuration: Promise<client.Configuration> }>();

/** The connection's client configuration (discovered, cached per connection version). */
export function configurationFor(
  { config, secrets }: OidcDeps,
  connection: SsoConnectionRow,
): Promise<client.Configuration> {
  const key = `${connection.id}:${connection.updatedAt.getTime()}`;
  const cached = configurations.get(key);
  if (cached && Date.now() - cached.at < DISCOVERY_CACHE_MS) return cached.configuration;
  if (!connection.oidcIssuer || !connection.oidcClientId || !connection.oidcClientSecret) {
    return Promise.reject(new Error('the connection has no issuer, client id or secret'));
  }
  const configuration = client.discovery(
    issuerOf(connection.oidcIssuer),
    connection.oidcClientId,
    undefined,
    client.ClientSecretBasic(secrets.decrypt(connection.oidcClientSecret)),
    discoveryOptions(config),
  );
  // A failed discovery is not kept: the next sign-in asks again.
  configuration.catch(() => configurations.delete(key));
  for (const k of configurations.keys()) if (k.startsWith(`${connection.id}:`)) configurations.delete(k);
  configurations.set(key, { at: Date.now(), configuration });
  return configuration;
}

export type OidcStart = { url: URL; state: string; nonce: string; codeVerifier: string };

export async function authorizationUrl(
  configuration: client.Configuration,
  redirectUri: string,
  loginHint: string | undefined,
): Promise<OidcStart> {
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    ...(loginHint ? { login_hint: loginHint } : {}),
  });
  return { url, state, nonce, codeVerifier };
}

export type OidcClaims = {
  subject: string;
  email: string | undefined;
  emailVerified: boolean | undefined;
  firstName: string | undefined;
  lastName: string | undefined;
  groups: string[];
  claims: Record<string, unknown>;
};

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * Exchanges the callback's code and checks everything openid-client checks; throws on any
 * failure. The claims are the ID token's, completed by the userinfo endpoint when the provider
 * keeps the email there (oidc-provider and others do for the code flow).
 */
export async function finishSignIn(
  configuration: client.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<OidcClaims> {
  const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    pkceCodeVerifier: checks.codeVerifier,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('no ID token');
  let claims: Record<string, unknown> = { ...idClaims };
  if (!str(claims.email) && configuration.serverMetadata().userinfo_endpoint) {
    const info = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    claims = { ...info, ...claims, email: info.email, email_verified: info.email_verified };
  }
  const groups = Array.isArray(claims.groups) ? claims.groups.map(String) : [];
  return {
    subject: idClaims.sub,
    email: str(claims.email),
    emailVerified: typeof claims.email_verified === 'boolean' ? claims.email_verified : undefined,
    firstName: str(claims.given_name) ?? str(claims.name)?.split(' ')[0],
    lastName: str(claims.family_name) ?? str(claims.name)?.split(' ').slice(1).join(' '),
    groups,
    claims,
  };
}
