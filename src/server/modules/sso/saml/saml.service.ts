import crypto from 'node:crypto';
import type { Deps } from '../../../context';
import { asPlatform, isUuid } from '../../../db/tenant-scope';
import { AppError, notFound } from '../../../lib/errors';
import { hashToken } from '../../../lib/tokens';
import { startedInThisBrowser } from '../browser-binding';
import { completeSsoSignIn, SsoRefusal, type SsoSignedIn, type SsoSignInContext } from '../complete-sign-in';
import { ssoRepository, type SsoConnectionRow } from '../sso.repository';
import { fetchIdpMetadata, parseIdpMetadata, type IdpMetadata } from './idp-metadata';
import {
  authnRequestUrl,
  SamlRefused,
  spMetadataXml,
  spUrls,
  validateSamlResponse,
  type IdpSettings,
  type SpUrls,
} from './saml-protocol';
import { organizationsRepository } from '../../organizations/organizations.repository';

/**
 * SAML 2.0 sign-in for an organization (decision 062): our metadata, the redirect to the provider,
 * and the assertion consumer service. The protocol checks are saml-protocol.ts's; this adds what
 * needs the database: the pending request a response answers (single use, by RelayState and
 * InResponseTo), provider-started responses only where the admin allowed them, the replay table,
 * and then completeSsoSignIn (verified domain, account, membership, session).
 */

/** The refusals of the ACS, by what failed; the sign-in page shows the SSO_ERRORS words of `code`. */
function refusalOf(err: SamlRefused): SsoRefusal {
  return new SsoRefusal(err.code === 'saml_expired' ? 'expired' : 'refused', `${err.code}: ${err.message}`);
}

const SIGNED_REQUESTS_UNAVAILABLE =
  'This identity provider wants signed sign-in requests (WantAuthnRequestsSigned), and this Pigeonhole server has ' +
  'no SAML signing key (SAML_SP_KEY_FILE, SAML_SP_CERT_FILE): ask its operator to set one, or turn request ' +
  'signing off at the provider';

/** The connection's columns the SAML half fills from the provider's metadata. */
export type SamlColumns = Pick<
  SsoConnectionRow,
  'idpMetadataUrl' | 'idpMetadataXml' | 'idpEntityId' | 'idpSsoUrl' | 'idpCertificates'
>;

export type SamlAcsBody = { SAMLResponse?: string; RelayState?: string };

export function createSamlService(deps: Deps, domains: SsoSignInContext['domains']) {
  const { db, config } = deps;
  const urlsOf = (organizationId: string): SpUrls => spUrls(deps.publicUrl(), organizationId);
  const idpOf = (connection: SsoConnectionRow): IdpSettings | undefined =>
    connection.idpEntityId && connection.idpSsoUrl && connection.idpCertificates.length > 0
      ? { entityId: connection.idpEntityId, ssoUrl: connection.idpSsoUrl, certificates: connection.idpCertificates }
      : undefined;

  return {
    urlsOf,

    /**
     * Our metadata for the provider's admin, public (the provider fetches it): served for any
     * organization, with or without a connection yet, since the admin registers us at the provider
     * before they have the provider's metadata to paste.
     */
    async metadata(organizationId: string): Promise<string> {
      if (!isUuid(organizationId) || !(await organizationsRepository.findById(db, organizationId))) {
        throw notFound('Organization not found');
      }
      return spMetadataXml(urlsOf(organizationId), config.samlSpSigning);
    },

    /**
     * What the admin's settings store for the SAML half: the provider's metadata, pasted (it wins)
     * or fetched from its URL, read into the columns. 400 for unreadable metadata, 422 for a URL
     * that cannot be fetched, with the reason.
     */
    async resolveSettings(
      input: { idpMetadataUrl?: string | null; idpMetadataXml?: string | null },
      before?: SsoConnectionRow,
    ): Promise<Partial<SamlColumns>> {
      const xml = input.idpMetadataXml?.trim();
      // The refusal names the field it is about, so the form shows it under that field.
      const onField = (path: string) => (err: unknown) => {
        if (!(err instanceof AppError)) throw err;
        throw new AppError(err.statusCode, err.message, err.code, [{ path, message: err.message }]);
      };
      let parsed: IdpMetadata;
      if (xml)
        parsed = await Promise.resolve()
          .then(() => parseIdpMetadata(xml))
          .catch(onField('idpMetadataXml'));
      else if (input.idpMetadataUrl) {
        parsed = await fetchIdpMetadata(input.idpMetadataUrl, config.allowPrivateTargets).catch(
          onField('idpMetadataUrl'),
        );
      }
      // Saved again without new metadata (turning it on, changing the role): what was read stays.
      else if (before?.idpEntityId) return {};
      else {
        throw new AppError(
          400,
          "Paste the identity provider's metadata XML or enter its metadata URL",
          'saml_metadata_required',
          [{ path: 'idpMetadataXml', message: "Paste the identity provider's metadata XML or enter its metadata URL" }],
        );
      }
      // A provider that wants signed AuthnRequests refuses unsigned ones: say so now, not at sign-in.
      if (parsed.wantsSignedRequests && !config.samlSpSigning) {
        const path = xml ? 'idpMetadataXml' : 'idpMetadataUrl';
        throw new AppError(400, SIGNED_REQUESTS_UNAVAILABLE, 'saml_signing_unavailable', [
          { path, message: SIGNED_REQUESTS_UNAVAILABLE },
        ]);
      }
      return {
        idpMetadataUrl: xml ? null : (input.idpMetadataUrl ?? null),
        idpMetadataXml: xml ?? null,
        idpEntityId: parsed.entityId,
        idpSsoUrl: parsed.ssoUrl,
        idpCertificates: parsed.certificates,
      };
    },

    /**
     * Starts a sign-in (sso.service's start, which stores the pending request): the AuthnRequest
     * gets an ID of ours, stored with the request and echoed by the provider as InResponseTo, and
     * the request's state is our RelayState. Answers the provider's URL to send the browser to.
     */
    async startRequest(connection: SsoConnectionRow, request: { state: string }) {
      const idp = idpOf(connection);
      if (connection.protocol !== 'saml' || !connection.enabled || !idp) throw new SsoRefusal('not_available');
      // An xs:ID must not start with a digit: the leading underscore keeps it an NCName.
      const samlRequestId = `_${crypto.randomUUID()}`;
      const urls = urlsOf(connection.organizationId);
      const url = await authnRequestUrl(urls, idp, samlRequestId, request.state, config.samlSpSigning);
      // The state's cookie (browser-binding.ts) is scoped to this organization's ACS.
      return { url, samlRequestId, acsPath: new URL(urls.acsUrl).pathname };
    },

    /**
     * The assertion consumer service: the provider's POST, validated, then the sign-in. Throws
     * SsoRefusal (the route turns it into the sign-in page with its words); nothing is created
     * unless every check passed.
     */
    async consume(
      organizationId: string,
      body: SamlAcsBody,
      browserState: string | undefined,
      client: SsoSignInContext['client'],
    ): Promise<SsoSignedIn> {
      if (!isUuid(organizationId)) throw new SsoRefusal('not_available', 'not an organization id');
      const connection = await asPlatform(() => ssoRepository.findConnection(db, organizationId));
      const idp = connection && idpOf(connection);
      if (!connection || connection.protocol !== 'saml' || !connection.enabled || !idp) {
        throw new SsoRefusal('not_available', 'no enabled SAML connection');
      }
      let assertion;
      try {
        assertion = await validateSamlResponse(urlsOf(organizationId), idp, body.SAMLResponse ?? '');
      } catch (err) {
        if (err instanceof SamlRefused) throw refusalOf(err);
        throw err;
      }

      // Which sign-in this answers. The signed InResponseTo decides whether it is an answer at all;
      // the RelayState (ours, random, hashed at rest) finds the request, which is taken once, and
      // must be the state this browser's cookie holds: a response to a sign-in another browser
      // started (login CSRF: an attacker's own response posted into a victim's browser) is refused.
      let invitationToken: string | null = null;
      if (assertion.inResponseTo !== null) {
        const relayState = body.RelayState;
        const request = relayState
          ? await asPlatform(() => ssoRepository.takeSignInRequest(db, hashToken(relayState)))
          : undefined;
        if (!request || request.connectionId !== connection.id || request.samlRequestId !== assertion.inResponseTo) {
          throw new SsoRefusal(
            'expired',
            'saml_request_unknown: no pending sign-in request matches InResponseTo and RelayState',
          );
        }
        if (!startedInThisBrowser(browserState, relayState!)) {
          throw new SsoRefusal(
            'expired',
            'saml_other_browser: the sign-in was started in another browser (no or another state cookie)',
          );
        }
        invitationToken = request.invitationToken;
      } else if (!connection.allowIdpInitiated) {
        // A provider-started response answers no request, so no browser can be bound to it: the
        // admin's switch is the only thing that lets one in (decision 062).
        throw new SsoRefusal(
          'refused',
          'saml_unsolicited: a provider-started (unsolicited) response, and the admin has not allowed provider-started sign-in',
        );
      }

      // A replay is refused by the primary key of sso_used_assertions, kept until the assertion
      // could no longer be presented anyway.
      const fresh = await asPlatform(() =>
        ssoRepository.markAssertionUsed(db, {
          organizationId,
          connectionId: connection.id,
          assertionId: `saml:${assertion.assertionId}`,
          expiresAt: assertion.notOnOrAfter,
        }),
      );
      if (!fresh) throw new SsoRefusal('expired', 'saml_replayed: this assertion was used already');

      const groups = groupsOf(assertion.attributes);
      return completeSsoSignIn(
        { deps, domains, client },
        {
          connection,
          subject: assertion.nameId,
          email: assertion.email,
          names: {
            firstName: attribute(assertion.attributes, GIVEN_NAME),
            lastName: attribute(assertion.attributes, SURNAME),
          },
          groups,
          claims: assertion.attributes,
          invitationToken,
        },
      );
    },
  };
}

const GIVEN_NAME = [
  'givenname',
  'firstname',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  'urn:oid:2.5.4.42',
];
const SURNAME = [
  'surname',
  'sn',
  'lastname',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  'urn:oid:2.5.4.4',
];
const GROUPS = ['groups', 'memberof', 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups'];

function attribute(attributes: Record<string, string | string[]>, names: string[]): string | null {
  for (const [key, value] of Object.entries(attributes)) {
    if (names.includes(key.toLowerCase())) return (Array.isArray(value) ? value[0] : value) ?? null;
  }
  return null;
}

function groupsOf(attributes: Record<string, string | string[]>): string[] {
  for (const [key, value] of Object.entries(attributes)) {
    if (GROUPS.includes(key.toLowerCase()))
      return (Array.isArray(value) ? value : [value]).filter((v) => typeof v === 'string');
  }
  return [];
}

export type SamlService = ReturnType<typeof createSamlService>;
