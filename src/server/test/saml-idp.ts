import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as samlify from 'samlify';
import * as validator from '@authenio/samlify-node-xmllint';

/**
 * A real SAML identity provider for tests (samlify, with its xmllint schema validator), signing
 * with keys of its own made here: a 2048-bit RSA key and a self-signed certificate from the
 * machine's openssl. Everything it answers is a real signed SAML message; the tests change the
 * values it signs (audience, issuer, times) or the XML after signing (wrapping) to prove each
 * refusal.
 */

samlify.setSchemaValidator(validator);

export type KeyPair = { privateKey: string; certificate: string };

export function makeKeyPair(commonName = 'Test IdP'): KeyPair {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saml-idp-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        `/CN=${commonName}`,
      ],
      { stdio: 'ignore' },
    );
    return { privateKey: fs.readFileSync(key, 'utf8'), certificate: fs.readFileSync(cert, 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export type ResponseOptions = {
  email: string;
  /** The AuthnRequest's ID this answers; '' for a provider-started (unsolicited) response. */
  inResponseTo?: string;
  audience?: string;
  issuer?: string;
  recipient?: string;
  /** Minutes from now the assertion stays valid (negative: expired). */
  validForMinutes?: number;
  /** Minutes since the assertion was issued. */
  issuedMinutesAgo?: number;
  /** Extra attributes, each one value. */
  attributes?: Record<string, string>;
  /** false: the XML as filled in, with no signature at all. */
  sign?: boolean;
};

export type TestIdp = {
  entityId: string;
  ssoUrl: string;
  keys: KeyPair;
  metadataXml: string;
  /** A SAMLResponse (base64, as the HTTP-POST binding carries it) for our SP's metadata. */
  respond: (spMetadataXml: string, options: ResponseOptions) => Promise<string>;
  /** The AuthnRequest's ID from the redirect URL our SP built. */
  requestIdOf: (redirectUrl: string) => string;
};

export function createTestIdp(options: { entityId?: string; ssoUrl?: string; keys?: KeyPair } = {}): TestIdp {
  const entityId = options.entityId ?? 'https://idp.example.test/saml';
  const ssoUrl = options.ssoUrl ?? 'https://idp.example.test/saml/sso';
  const keys = options.keys ?? makeKeyPair();
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    privateKey: keys.privateKey,
    signingCert: keys.certificate,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    singleSignOnService: [
      { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: ssoUrl },
      { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: ssoUrl },
    ],
  });
  const metadataXml = idp.getMetadata();

  const respond = async (spMetadataXml: string, o: ResponseOptions) => {
    const sp = samlify.ServiceProvider({ metadata: spMetadataXml });
    const now = Date.now();
    const issued = new Date(now - (o.issuedMinutesAgo ?? 0) * 60_000).toISOString();
    const until = new Date(now + (o.validForMinutes ?? 5) * 60_000).toISOString();
    const acs = /<(?:md:)?AssertionConsumerService[^>]*Location="([^"]+)"/.exec(spMetadataXml)?.[1] ?? '';
    const id = `_${crypto.randomUUID()}`;
    const attributes = Object.entries(o.attributes ?? {})
      .map(
        ([name, value]) =>
          `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xsi:type="xs:string">${value}</saml:AttributeValue></saml:Attribute>`,
      )
      .join('');
    const values = {
      ID: id,
      AssertionID: `_${crypto.randomUUID()}`,
      Destination: acs,
      Audience: o.audience ?? sp.entityMeta.getEntityID(),
      SubjectRecipient: o.recipient ?? acs,
      Issuer: o.issuer ?? entityId,
      IssueInstant: issued,
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: issued,
      ConditionsNotOnOrAfter: until,
      SubjectConfirmationDataNotOnOrAfter: until,
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: o.email,
      InResponseTo: o.inResponseTo ?? '',
      AuthnStatement: 'AUTHN-STATEMENT-HERE',
      AttributeStatement: 'ATTRIBUTE-STATEMENT-HERE',
    };
    // samlify escapes every value it fills in; the two statements are XML, put in after.
    const authnStatement = `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;
    const attributeStatement = attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '';
    const fill = (template: string) => {
      let xml = samlify.SamlLib.replaceTagsByValue(template, values)
        .replace('AUTHN-STATEMENT-HERE', authnStatement)
        .replace('ATTRIBUTE-STATEMENT-HERE', attributeStatement);
      // An unsolicited response carries no InResponseTo at all, not an empty one.
      if (!o.inResponseTo) xml = xml.replace(/ InResponseTo=""/g, '');
      return xml;
    };
    if (o.sign === false) {
      return Buffer.from(fill(samlify.SamlLib.defaultLoginResponseTemplate.context)).toString('base64');
    }
    const { context } = await idp.createLoginResponse(
      sp,
      { extract: {} },
      'post',
      { email: o.email },
      {
        customTagReplacement: (template) => ({ id, context: fill(template) }),
      },
    );
    return context;
  };

  const requestIdOf = (redirectUrl: string) => {
    const request = new URL(redirectUrl).searchParams.get('SAMLRequest') ?? '';
    const xml = zlib.inflateRawSync(Buffer.from(request, 'base64')).toString();
    return /ID="([^"]+)"/.exec(xml)?.[1] ?? '';
  };

  return { entityId, ssoUrl, keys, metadataXml, respond, requestIdOf };
}

/**
 * The test IdP on loopback HTTP, as a browser meets it: GET /sso with our AuthnRequest (HTTP-Redirect)
 * answers the provider's auto-submitting HTML form, which POSTs the signed response and our
 * RelayState to our ACS from the provider's origin. `signInAs` chooses who the next sign-in is.
 */
export async function startSamlIdpServer(spMetadataUrl: () => string) {
  const http = await import('node:http');
  let email = '';
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://idp.local');
      if (url.pathname !== '/sso') return void res.writeHead(404).end();
      const spXml = await (await fetch(spMetadataUrl())).text();
      const acs = /<(?:md:)?AssertionConsumerService[^>]*Location="([^"]+)"/.exec(spXml)?.[1] ?? '';
      const SAMLResponse = await idp.respond(spXml, { email, inResponseTo: idp.requestIdOf(url.href) });
      const relay = url.searchParams.get('RelayState') ?? '';
      const escape = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>Test IdP</title><form method="post" action="${escape(acs)}">` +
          `<input type="hidden" name="SAMLResponse" value="${escape(SAMLResponse)}">` +
          `<input type="hidden" name="RelayState" value="${escape(relay)}">` +
          `<button>Continue</button></form><script>document.forms[0].submit()</script>`,
      );
    })().catch((err: unknown) => res.writeHead(500).end(String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const idp = createTestIdp({ entityId: `http://127.0.0.1:${port}/metadata`, ssoUrl: `http://127.0.0.1:${port}/sso` });
  return {
    idp,
    signInAs: (address: string) => {
      email = address;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
