import crypto from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import xpath from 'xpath';
import { AppError } from '../../../lib/errors';
import { outboundFetch } from '../../../lib/outbound';

/**
 * The identity provider's metadata (SAML 2.0 metadata, an EntityDescriptor), pasted by the admin
 * or fetched from the provider's URL: we keep its entity id (the Issuer its assertions must
 * carry), the HTTP-Redirect single sign-on URL (where the AuthnRequest goes) and every signing
 * certificate (a provider rolling its key lists two). node-saml reads none of this itself: it is
 * handed the values we extract here (decision 062).
 */

/** `wantsSignedRequests`: the IDPSSODescriptor's WantAuthnRequestsSigned (read at save, not stored). */
export type IdpMetadata = { entityId: string; ssoUrl: string; certificates: string[]; wantsSignedRequests: boolean };

/** Metadata larger than this is refused: a real provider's is a few kilobytes (Entra's about 20). */
export const MAX_METADATA_BYTES = 512 * 1024;
/** How long fetching the metadata URL may take, connection and body together. */
export const METADATA_FETCH_TIMEOUT_MS = 5_000;

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

const select = xpath.useNamespaces({ md: MD, ds: DS });

const invalid = (message: string) => new AppError(400, message, 'invalid_saml_metadata');

/** Parses pasted or fetched metadata; every refusal says what was missing. */
export function parseIdpMetadata(xml: string): IdpMetadata {
  if (Buffer.byteLength(xml, 'utf8') > MAX_METADATA_BYTES) {
    throw invalid(`The metadata is larger than ${MAX_METADATA_BYTES / 1024} KB`);
  }
  // A DOCTYPE is never part of SAML metadata; refusing it keeps entity expansion out entirely.
  if (/<!DOCTYPE/i.test(xml)) throw invalid('The metadata must not contain a DOCTYPE');
  let doc: Document;
  const errors: string[] = [];
  try {
    doc = new DOMParser({
      errorHandler: (level: string, message: unknown) => {
        if (level !== 'warning') errors.push(String(message));
      },
    }).parseFromString(xml, 'text/xml') as unknown as Document;
  } catch {
    throw invalid('The metadata is not well-formed XML');
  }
  if (errors.length > 0 || !doc?.documentElement) throw invalid('The metadata is not well-formed XML');

  // An EntitiesDescriptor (a federation's file) may hold many; we take the one IdP in it only
  // when there is exactly one, rather than guess.
  const idps = select('//md:EntityDescriptor[md:IDPSSODescriptor]', doc) as Element[];
  if (idps.length === 0) {
    throw invalid('The metadata has no identity provider (an EntityDescriptor with an IDPSSODescriptor)');
  }
  if (idps.length > 1) throw invalid('The metadata describes several identity providers; paste the one to use');
  const entity = idps[0]!;
  const entityId = entity.getAttribute('entityID')?.trim();
  if (!entityId) throw invalid('The metadata has no entityID');

  const ssoUrl = (
    select(
      `string(md:IDPSSODescriptor/md:SingleSignOnService[@Binding='${REDIRECT_BINDING}']/@Location)`,
      entity,
    ) as string
  ).trim();
  if (!ssoUrl) throw invalid('The metadata has no single sign-on URL for the HTTP-Redirect binding');
  let parsed: URL;
  try {
    parsed = new URL(ssoUrl);
  } catch {
    throw invalid('The single sign-on URL in the metadata is not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw invalid('The single sign-on URL in the metadata must be an http(s) URL');
  }

  // Signing keys: KeyDescriptors with use="signing" or no use at all (both purposes).
  const nodes = select(
    "md:IDPSSODescriptor/md:KeyDescriptor[not(@use) or @use='signing']/ds:KeyInfo/ds:X509Data/ds:X509Certificate",
    entity,
  ) as Element[];
  const certificates = [...new Set(nodes.map((n) => (n.textContent ?? '').replace(/\s+/g, '')).filter(Boolean))];
  if (certificates.length === 0) throw invalid('The metadata has no signing certificate');
  for (const cert of certificates) {
    try {
      new crypto.X509Certificate(Buffer.from(cert, 'base64'));
    } catch {
      throw invalid('A signing certificate in the metadata cannot be read');
    }
  }
  const wants = (select('string(md:IDPSSODescriptor/@WantAuthnRequestsSigned)', entity) as string).trim();
  return { entityId, ssoUrl, certificates, wantsSignedRequests: wants === 'true' || wants === '1' };
}

/**
 * Fetches the metadata from the provider's URL: https only (http only where private targets are
 * allowed, i.e. local testing), through the webhooks' SSRF guard (public addresses only, checked
 * at connect time), no redirects followed, at most MAX_METADATA_BYTES read, a deadline over all.
 */
export async function fetchIdpMetadata(url: string, allowPrivate: boolean): Promise<IdpMetadata> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('The metadata URL is not a URL');
  }
  if (parsed.protocol !== 'https:' && !(allowPrivate && parsed.protocol === 'http:')) {
    throw invalid('The metadata URL must start with https://');
  }
  const fail = (why: string) =>
    new AppError(422, `The metadata could not be fetched: ${why}`, 'saml_metadata_fetch_failed');
  let text: string;
  try {
    const response = await outboundFetch(allowPrivate)(parsed.toString(), {
      redirect: 'manual',
      signal: AbortSignal.timeout(METADATA_FETCH_TIMEOUT_MS),
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw fail(`the server answered ${response.status}`);
    }
    text = await readCapped(response.body as ReadableStream<Uint8Array> | null, MAX_METADATA_BYTES, () =>
      fail(`it is larger than ${MAX_METADATA_BYTES / 1024} KB`),
    );
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
    if (e.code === 'EPRIVATETARGET' || e.cause?.code === 'EPRIVATETARGET') {
      throw fail('the address is not public (private, loopback and link-local addresses are refused)');
    }
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
      throw fail(`no answer within ${METADATA_FETCH_TIMEOUT_MS / 1000} s`);
    throw fail(e.cause?.message ?? e.message);
  }
  return parseIdpMetadata(text);
}

async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  max: number,
  tooLarge: () => Error,
): Promise<string> {
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    // Leaving the loop by a throw returns the iterator, which cancels the rest of the body.
    if (size > max) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
