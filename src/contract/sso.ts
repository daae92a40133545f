import { z } from 'zod';
import { Id, Timestamp } from './common';
import { Role } from './organizations';

/**
 * Single sign-on (issue 43, decision 059): an organization's one identity provider, OpenID Connect
 * or SAML 2.0. Only addresses of the organization's verified domains (decision 058) are signed in
 * through it. The OIDC client secret is write-only: the API says whether one is set, never what.
 */

export const SSO_PROTOCOLS = ['oidc', 'saml'] as const;
export const SsoProtocol = z.enum(SSO_PROTOCOLS, { message: 'Protocol must be oidc or saml' });
export type SsoProtocol = z.infer<typeof SsoProtocol>;

/** Where the provider sends people back after an OIDC sign-in (the redirect URI to register). */
export const OIDC_CALLBACK_PATH = '/api/sso/oidc/callback';
/** Where the sign-in page sends an address: redirects to the provider (query: email, invitation). */
export const SSO_START_PATH = '/api/sso/start';

export const SSO_MESSAGES = {
  notFound: 'Single sign-on is not set up for this organization',
  issuerRequired: "Enter the provider's issuer or discovery URL",
  issuerInvalid:
    'Enter the issuer as an https:// URL, like https://login.example.com or its …/.well-known/openid-configuration',
  clientIdRequired: 'Enter the client id the provider gave Pigeonhole',
  clientSecretRequired: 'Enter the client secret the provider gave Pigeonhole',
  tooLong: (what: string, max: number) => `${what} has at most ${max} characters`,
  adminMappingPair: 'Enter both the claim or group name and the value that makes an admin, or neither',
  breakGlassNotFound: 'The break-glass account is not a member of this organization',
  breakGlassNotAdmin: 'The break-glass account must be an admin of this organization',
  requireSsoNeedsBreakGlass:
    'Choose a break-glass admin before requiring single sign-on: someone must be able to sign in if the provider fails',
  requireSsoNeedsEnabled: 'Turn single sign-on on before requiring it',
  enableNeedsDomain: 'Verify at least one email domain before turning single sign-on on',
  discoveryFailed: (reason: string) => `The provider's discovery document could not be read: ${reason}`,
  passwordRefused: "Your organization signs you in through its identity provider: use 'Continue with single sign-on'.",
  lookupRateLimited: 'Too many checks: try again in a minute.',
} as const;

/**
 * The refusals of a sign-in through the provider: /login?sso_error=<code> shows the words. The
 * same list for OIDC and SAML, so the sign-in page knows every one.
 */
export const SSO_ERRORS = {
  not_available: "Single sign-on isn't set up for this address. Sign in with your password.",
  expired: 'That sign-in took too long or was already used. Start again.',
  refused: "Your identity provider's answer could not be accepted. Start again, or ask your administrator.",
  provider_error: 'Your identity provider did not sign you in. Start again, or ask your administrator.',
  unverified_domain:
    "Your identity provider gave an address whose domain this organization hasn't verified. Ask your administrator.",
  email_missing: "Your identity provider didn't give an email address. Ask your administrator.",
  seat_limit: 'This organization has no free seat for a new member. Ask your administrator.',
  trial_expired: "This organization's trial has ended. Ask your administrator.",
  invitation: "The invitation can't be used: it was used, revoked, has expired, or is for another address.",
  unavailable: 'Single sign-on is not available right now. Try again in a few minutes.',
} as const;
export type SsoErrorCode = keyof typeof SSO_ERRORS;
export const ssoErrorMessage = (code: string | null | undefined) =>
  code && code in SSO_ERRORS ? SSO_ERRORS[code as SsoErrorCode] : code ? SSO_ERRORS.refused : null;

const trimmedOrNull = (max: number, what: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string().max(max, SSO_MESSAGES.tooLong(what, max)).nullish(),
  );

/** What the admin sees: never the secret. `redirectUri` is ours, to register at the provider. */
export const SsoConnection = z.object({
  id: Id,
  organizationId: Id,
  protocol: SsoProtocol,
  enabled: z.boolean(),
  oidcIssuer: z.string().nullable(),
  oidcClientId: z.string().nullable(),
  oidcClientSecretSet: z.boolean(),
  idpMetadataUrl: z.string().nullable(),
  idpEntityId: z.string().nullable(),
  idpSsoUrl: z.string().nullable(),
  idpCertificates: z.array(z.string()),
  allowIdpInitiated: z.boolean(),
  defaultRole: Role,
  adminClaim: z.string().nullable(),
  adminValue: z.string().nullable(),
  requireSso: z.boolean(),
  breakGlassUserId: Id.nullable(),
  redirectUri: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type SsoConnection = z.infer<typeof SsoConnection>;

/**
 * The whole connection as the admin saves it. `oidcClientSecret` absent or blank keeps the stored
 * one; the SAML fields are the SAML half's (saml/), ignored for OIDC.
 */
export const SsoConnectionBody = z
  .object({
    protocol: SsoProtocol,
    enabled: z.boolean().default(false),
    oidcIssuer: trimmedOrNull(2048, 'The issuer'),
    oidcClientId: trimmedOrNull(255, 'The client id'),
    oidcClientSecret: trimmedOrNull(4096, 'The client secret'),
    idpMetadataUrl: trimmedOrNull(2048, 'The metadata URL'),
    idpMetadataXml: z.string().max(200_000, SSO_MESSAGES.tooLong('The metadata', 200_000)).nullish(),
    allowIdpInitiated: z.boolean().default(false),
    defaultRole: Role.default('member'),
    adminClaim: trimmedOrNull(255, 'The claim or group name'),
    adminValue: trimmedOrNull(255, 'The value'),
    requireSso: z.boolean().default(false),
    breakGlassUserId: Id.nullish(),
  })
  .superRefine((b, ctx) => {
    if (Boolean(b.adminClaim) !== Boolean(b.adminValue)) {
      ctx.addIssue({
        code: 'custom',
        path: [b.adminClaim ? 'adminValue' : 'adminClaim'],
        message: SSO_MESSAGES.adminMappingPair,
      });
    }
    if (b.requireSso && !b.enabled) {
      ctx.addIssue({ code: 'custom', path: ['requireSso'], message: SSO_MESSAGES.requireSsoNeedsEnabled });
    }
    if (b.requireSso && !b.breakGlassUserId) {
      ctx.addIssue({ code: 'custom', path: ['breakGlassUserId'], message: SSO_MESSAGES.requireSsoNeedsBreakGlass });
    }
    if (b.protocol === 'oidc') {
      if (!b.oidcIssuer) ctx.addIssue({ code: 'custom', path: ['oidcIssuer'], message: SSO_MESSAGES.issuerRequired });
      else if (!isIssuerUrl(b.oidcIssuer, true)) {
        ctx.addIssue({ code: 'custom', path: ['oidcIssuer'], message: SSO_MESSAGES.issuerInvalid });
      }
      if (!b.oidcClientId)
        ctx.addIssue({ code: 'custom', path: ['oidcClientId'], message: SSO_MESSAGES.clientIdRequired });
    }
  });
export type SsoConnectionBody = z.infer<typeof SsoConnectionBody>;

/**
 * An issuer as the admin may type it: https (plain http only where the server allows insecure
 * discovery, a loopback provider in tests), no credentials, no fragment.
 */
export function isIssuerUrl(value: string, allowHttp: boolean): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash) return false;
  return url.protocol === 'https:' || (allowHttp && url.protocol === 'http:');
}

/** What "Test" found at the provider. */
export const SsoTestReply = z.object({
  ok: z.boolean(),
  message: z.string(),
  issuer: z.string().nullable(),
  authorizationEndpoint: z.string().nullable(),
});
export type SsoTestReply = z.infer<typeof SsoTestReply>;

/** The sign-in page's question: is this address signed in through a provider? */
export const SsoLookupBody = z.object({
  email: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.email('Enter an email address').max(255, 'Email must be less than 255 characters'),
  ),
});
export type SsoLookupBody = z.infer<typeof SsoLookupBody>;

/** `startUrl` when it is: the browser goes there (a full page load, it redirects to the provider). */
export const SsoLookupReply = z.object({
  sso: z.boolean(),
  required: z.boolean(),
  startUrl: z.string().nullable(),
});
export type SsoLookupReply = z.infer<typeof SsoLookupReply>;

export const ssoStartUrl = (email: string, invitationToken?: string) =>
  `${SSO_START_PATH}?${new URLSearchParams({ email, ...(invitationToken ? { invitation: invitationToken } : {}) })}`;
