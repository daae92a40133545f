import { z } from 'zod';

/**
 * SAML 2.0's side of single sign-on (decision 062): what the admin registers at their identity
 * provider for us. The provider's own settings travel in the shared connection (sso.ts:
 * idpMetadataUrl or idpMetadataXml in, idpEntityId, idpSsoUrl, idpCertificates out).
 */
export const SamlServiceProvider = z.object({
  /** Our entity id (also where our metadata is served). */
  entityId: z.string(),
  /** The assertion consumer service (HTTP-POST binding). */
  acsUrl: z.string(),
  /** Our metadata XML, public, for providers that read it by URL. */
  metadataUrl: z.string(),
});
export type SamlServiceProvider = z.infer<typeof SamlServiceProvider>;

export const SAML_SERVICE_PROVIDER_PATH = '/api/sso/saml/service-provider';
