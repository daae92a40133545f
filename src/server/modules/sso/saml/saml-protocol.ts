import { SAML, generateServiceProviderMetadata, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import type { SamlSpSigning } from '../../../config';
import { AppError } from '../../../lib/errors';

/**
 * SAML 2.0 for one organization's connection, as a service provider (decision 062). The
 * protocol's cryptography and XML are @node-saml/node-saml's: the signature check (only our stored
 * certificates, never a key the message carries), the one-assertion rule that stops signature
 * wrapping, reading the values only from the signed XML, Conditions' time window and the
 * audience. What node-saml leaves to its caller we check here: the assertion's Issuer (it checks
 * it only on logout messages), the bearer SubjectConfirmation (its Recipient, its NotOnOrAfter,
 * its InResponseTo: node-saml checks them only when it keeps the request ids itself), and the
 * address to sign in. The pending request, the replay table and the verified domain are the
 * service's (saml.service.ts), which owns the database.
 */

/** Our side of the connection, per organization; the entity id is also where the metadata is served. */
export type SpUrls = { entityId: string; acsUrl: string; metadataUrl: string };

export function spUrls(publicUrl: string, organizationId: string): SpUrls {
  const base = `${publicUrl.replace(/\/+$/, '')}/api/sso/saml/${organizationId}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata` };
}

/** What the stored connection holds for the provider (parsed from its metadata). */
export type IdpSettings = { entityId: string; ssoUrl: string; certificates: string[] };

/** Clock difference accepted between the provider and us, on every time the assertion carries. */
export const CLOCK_SKEW_MS = 60_000;
/** An assertion older than this (from its IssueInstant) is refused even inside its own window. */
export const MAX_ASSERTION_AGE_MS = 10 * 60_000;

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/**
 * Our metadata for the provider's admin: entity id, the ACS (HTTP-POST), signed assertions
 * wanted; with our signing key pair (SAML_SP_KEY_FILE, SAML_SP_CERT_FILE), its certificate as a
 * signing KeyDescriptor and AuthnRequestsSigned="true".
 */
export function spMetadataXml(urls: SpUrls, signing?: SamlSpSigning): string {
  return generateServiceProviderMetadata({
    issuer: urls.entityId,
    callbackUrl: urls.acsUrl,
    identifierFormat: EMAIL_FORMAT,
    wantAssertionsSigned: true,
    ...(signing ? { privateKey: signing.privateKey, publicCerts: [signing.certificate] } : {}),
  });
}

function samlFor(urls: SpUrls, idp: IdpSettings, requestId?: string, signing?: SamlSpSigning): SAML {
  return new SAML({
    issuer: urls.entityId,
    audience: urls.entityId,
    callbackUrl: urls.acsUrl,
    entryPoint: idp.ssoUrl,
    idpCert: idp.certificates,
    idpIssuer: idp.entityId,
    identifierFormat: EMAIL_FORMAT,
    wantAssertionsSigned: true,
    // A signed Response around a signed assertion is welcome, not required: Entra and Okta sign
    // the assertion by default, and the assertion is what we read.
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
    // The request ids live in sso_sign_in_requests, not in node-saml's per-process memory (which
    // another instance would not share): we check InResponseTo ourselves, below and in the service.
    validateInResponseTo: ValidateInResponseTo.never,
    disableRequestedAuthnContext: true,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
    // With our key pair, the AuthnRequest is signed as the HTTP-Redirect binding signs it: SigAlg
    // and Signature over the query (RSA-SHA256; node-saml's default would be SHA-1).
    ...(signing ? { privateKey: signing.privateKey, signatureAlgorithm: 'sha256' as const } : {}),
  });
}

/**
 * The URL to send the browser to (HTTP-Redirect binding): an AuthnRequest whose ID is
 * `requestId` (stored with the pending sign-in request, and echoed by the provider as
 * InResponseTo) and our RelayState, signed when we have a key pair.
 */
export async function authnRequestUrl(
  urls: SpUrls,
  idp: IdpSettings,
  requestId: string,
  relayState: string,
  signing?: SamlSpSigning,
) {
  return samlFor(urls, idp, requestId, signing).getAuthorizeUrlAsync(relayState, undefined, {});
}

/** What a valid response tells us, read from the signed assertion only. */
export type SamlAssertion = {
  assertionId: string;
  issuer: string;
  nameId: string;
  /** The address to sign in: the email attribute, or the NameID when it is an address. */
  email: string | undefined;
  /** The InResponseTo of the signed SubjectConfirmationData; null for a provider-started sign-in. */
  inResponseTo: string | null;
  /** Until when the assertion could be presented: how long its id must be remembered against replay. */
  notOnOrAfter: Date;
  attributes: Record<string, string | string[]>;
};

/** A response refused: 400 with a code per reason, the message says which check failed. */
export class SamlRefused extends AppError {
  constructor(message: string, code: string) {
    super(400, message, code);
  }
}

/** node-saml's messages, turned into ours; anything unknown is an invalid response. */
function refusalOf(err: Error): SamlRefused {
  const m = err.message;
  if (/multiple assertions|signature|Cannot obtain assertion from signed data/i.test(m)) {
    return new SamlRefused(
      'The SAML response is not signed by the identity provider’s certificate',
      'saml_signature_invalid',
    );
  }
  if (/audience/i.test(m))
    return new SamlRefused('The SAML assertion is meant for another service (audience)', 'saml_audience_mismatch');
  if (/expired|not yet valid/i.test(m))
    return new SamlRefused('The SAML assertion has expired or is not valid yet', 'saml_expired');
  if (/No decryption key/i.test(m)) {
    return new SamlRefused(
      'Encrypted SAML assertions are not supported: turn assertion encryption off',
      'saml_encrypted',
    );
  }
  if (/SAML provider returned/i.test(m))
    return new SamlRefused(
      `The identity provider refused the sign-in (${m.replace(/^SAML provider returned /, '')})`,
      'saml_status',
    );
  return new SamlRefused('The SAML response is not valid', 'saml_invalid');
}

type XmlJs = Record<string, unknown> & { $?: Record<string, string>; _?: string };
const first = (v: unknown): XmlJs | undefined => (Array.isArray(v) ? (v[0] as XmlJs) : undefined);
const all = (v: unknown): XmlJs[] => (Array.isArray(v) ? (v as XmlJs[]) : []);
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailaddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];

function emailOf(profile: Profile, attributes: Record<string, string | string[]>): string | undefined {
  for (const name of EMAIL_ATTRIBUTES) {
    const found = Object.entries(attributes).find(([k]) => k.toLowerCase() === name);
    const value = Array.isArray(found?.[1]) ? found[1][0] : found?.[1];
    if (typeof value === 'string' && value.includes('@')) return value.trim();
  }
  if (profile.nameIDFormat === EMAIL_FORMAT || /^[^\s@]+@[^\s@]+$/.test(profile.nameID ?? ''))
    return profile.nameID.trim();
  return undefined;
}

/**
 * Validates a POSTed SAMLResponse (base64) against the connection: node-saml's checks, then ours.
 * Throws SamlRefused with the reason; returns the signed assertion's values.
 */
export async function validateSamlResponse(
  urls: SpUrls,
  idp: IdpSettings,
  samlResponse: string,
  now: number = Date.now(),
): Promise<SamlAssertion> {
  if (!samlResponse || !/^[A-Za-z0-9+/=\s]+$/.test(samlResponse)) {
    throw new SamlRefused('SAMLResponse is missing or not base64', 'saml_invalid');
  }
  // A DOCTYPE has no place in a response; node-saml's parser would refuse entities, we refuse earlier.
  if (/<!DOCTYPE/i.test(Buffer.from(samlResponse, 'base64').toString('utf8'))) {
    throw new SamlRefused('The SAML response is not valid', 'saml_invalid');
  }
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(urls, idp).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (err) {
    throw refusalOf(err as Error);
  }
  if (!profile) throw new SamlRefused('The SAML response holds no sign-in', 'saml_invalid');

  // Everything below is read from the signed assertion (node-saml's getAssertion is parsed from
  // the verified XML, not from the document as received).
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlJs } | undefined)?.Assertion;
  if (!assertion) throw new SamlRefused('The SAML response holds no signed assertion', 'saml_signature_invalid');

  if (profile.issuer !== idp.entityId) {
    throw new SamlRefused(
      'The SAML assertion was issued by another identity provider (issuer)',
      'saml_issuer_mismatch',
    );
  }
  const assertionId = assertion.$?.ID;
  if (!assertionId) throw new SamlRefused('The SAML assertion has no ID', 'saml_invalid');

  // The bearer confirmation: for us (Recipient), still valid, and its InResponseTo.
  const confirmations = all(first(assertion.Subject)?.SubjectConfirmation).filter((c) => c.$?.Method === BEARER);
  const data = confirmations.map((c) => first(c.SubjectConfirmationData)?.$).filter((d) => d !== undefined);
  if (data.length === 0) throw new SamlRefused('The SAML assertion has no bearer subject confirmation', 'saml_invalid');
  const forUs = data.filter((d) => d.Recipient === urls.acsUrl);
  if (forUs.length === 0)
    throw new SamlRefused('The SAML assertion is meant for another service (recipient)', 'saml_audience_mismatch');
  const live = forUs.filter((d) => {
    const until = Date.parse(d.NotOnOrAfter ?? '');
    const from = d.NotBefore ? Date.parse(d.NotBefore) : -Infinity;
    return Number.isFinite(until) && now - CLOCK_SKEW_MS < until && now + CLOCK_SKEW_MS >= from;
  });
  if (live.length === 0) throw new SamlRefused('The SAML assertion has expired or is not valid yet', 'saml_expired');
  const confirmation = live[0]!;
  const inResponseTo = confirmation.InResponseTo ?? null;
  // The Response's own InResponseTo is outside the signature when only the assertion is signed:
  // it must agree with the signed one, never stand in for it.
  const outer = (profile as Profile & { inResponseTo?: string }).inResponseTo ?? null;
  if (outer !== null && outer !== inResponseTo) {
    throw new SamlRefused('The SAML response does not answer our sign-in request', 'saml_in_response_to_mismatch');
  }

  const conditionsUntil = Date.parse(first(assertion.Conditions)?.$?.NotOnOrAfter ?? '');
  const notOnOrAfter = new Date(
    Math.max(Date.parse(confirmation.NotOnOrAfter!), Number.isFinite(conditionsUntil) ? conditionsUntil : 0) +
      CLOCK_SKEW_MS,
  );
  const attributes = (profile.attributes ?? {}) as Record<string, string | string[]>;
  return {
    assertionId,
    issuer: profile.issuer,
    nameId: profile.nameID,
    email: emailOf(profile, attributes),
    inResponseTo,
    notOnOrAfter,
    attributes,
  };
}
