import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestIdp, makeKeyPair } from '../../../test/saml-idp';
import { parseIdpMetadata } from './idp-metadata';
import { authnRequestUrl, spMetadataXml, spUrls, validateSamlResponse } from './saml-protocol';

/**
 * The protocol layer against a real SAML identity provider (samlify, its own keys): what
 * node-saml refuses and what we refuse on top, without a database. The sign-in itself (pending
 * requests, replay, domains, accounts) is proved in saml.test.ts.
 */
const urls = spUrls('http://127.0.0.1:3000', '00000000-0000-4000-8000-000000000001');
const spXml = spMetadataXml(urls);
const idp = createTestIdp();
const settings = parseIdpMetadata(idp.metadataXml);

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
  throw new Error('expected a refusal');
}

describe('SAML protocol layer', () => {
  it('reads the provider metadata: entity id, redirect SSO URL, signing certificate', () => {
    expect(settings.entityId).toBe(idp.entityId);
    expect(settings.ssoUrl).toBe(idp.ssoUrl);
    expect(settings.certificates).toHaveLength(1);
  });

  it('refuses metadata that is not an IdP, has no certificate, or has a DOCTYPE', () => {
    expect(() => parseIdpMetadata('<not-xml')).toThrow(/well-formed|identity provider/);
    expect(() => parseIdpMetadata(spXml)).toThrow(/no identity provider/);
    expect(() =>
      parseIdpMetadata(idp.metadataXml.replace(/<ds:X509Certificate>[^<]+<\/ds:X509Certificate>/g, '')),
    ).toThrow(/no signing certificate/);
    expect(() => parseIdpMetadata(`<!DOCTYPE x [<!ENTITY a "b">]>${idp.metadataXml}`)).toThrow(/DOCTYPE/);
  });

  it('our metadata names our entity id and ACS and asks for signed assertions', () => {
    expect(spXml).toContain(`entityID="${urls.entityId}"`);
    expect(spXml).toContain(`Location="${urls.acsUrl}"`);
    expect(spXml).toContain('WantAssertionsSigned="true"');
  });

  it('builds an AuthnRequest with our ID and RelayState', async () => {
    const url = await authnRequestUrl(urls, settings, '_req-1', 'relay-1');
    expect(url.startsWith(idp.ssoUrl)).toBe(true);
    expect(new URL(url).searchParams.get('RelayState')).toBe('relay-1');
    expect(idp.requestIdOf(url)).toBe('_req-1');
  });

  it('signs the AuthnRequest with our key pair (RSA-SHA256 over the redirect query) and publishes its certificate', async () => {
    const keys = makeKeyPair('Pigeonhole SP');
    const signing = { privateKey: keys.privateKey, certificate: keys.certificate };
    const url = await authnRequestUrl(urls, settings, '_req-2', 'relay-2', signing);
    expect(idp.requestIdOf(url)).toBe('_req-2');
    const query = new URL(url).searchParams;
    expect(query.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    // What the provider verifies: the query's parameters as received, in the binding's order.
    const raw = Object.fromEntries(
      new URL(url).search
        .slice(1)
        .split('&')
        .map((p) => [p.split('=')[0], p]),
    );
    const octets = [raw.SAMLRequest, raw.RelayState, raw.SigAlg].join('&');
    const metadata = spMetadataXml(urls, signing);
    expect(metadata).toContain('AuthnRequestsSigned="true"');
    const published = /<KeyDescriptor use="signing">[\s\S]*?<ds:X509Certificate>([^<]+)</.exec(metadata)?.[1];
    const cert = new crypto.X509Certificate(Buffer.from(published!.replace(/\s+/g, ''), 'base64'));
    const signature = Buffer.from(query.get('Signature')!, 'base64');
    expect(crypto.verify('sha256', Buffer.from(octets), cert.publicKey, signature)).toBe(true);
    expect(crypto.verify('sha256', Buffer.from(octets.replace('relay-2', 'relay-3')), cert.publicKey, signature)).toBe(
      false,
    );

    // Without a key pair: unsigned, and the metadata says so.
    const unsigned = new URL(await authnRequestUrl(urls, settings, '_req-3', 'relay-3')).searchParams;
    expect(unsigned.get('Signature')).toBeNull();
    expect(spXml).toContain('AuthnRequestsSigned="false"');
    expect(spXml).not.toContain('KeyDescriptor');
  });

  it('reads whether the provider wants signed AuthnRequests (WantAuthnRequestsSigned)', () => {
    expect(settings.wantsSignedRequests).toBe(false);
    const wanting = idp.metadataXml.replace(/WantAuthnRequestsSigned="false"/, 'WantAuthnRequestsSigned="true"');
    expect(wanting).not.toBe(idp.metadataXml);
    expect(parseIdpMetadata(wanting).wantsSignedRequests).toBe(true);
  });

  it('accepts a signed response and reads the signed assertion', async () => {
    const response = await idp.respond(spXml, { email: 'ana@example.com', inResponseTo: '_req-1' });
    const assertion = await validateSamlResponse(urls, settings, response);
    expect(assertion).toMatchObject({ email: 'ana@example.com', issuer: idp.entityId, inResponseTo: '_req-1' });
    expect(assertion.assertionId).toMatch(/^_/);
  });

  it('refuses an unsigned response', async () => {
    const response = await idp.respond(spXml, { email: 'ana@example.com', sign: false });
    expect(await refusal(validateSamlResponse(urls, settings, response))).toMatchObject({
      code: 'saml_signature_invalid',
    });
  });

  it('refuses a response signed by another key', async () => {
    const other = createTestIdp({ entityId: idp.entityId, keys: makeKeyPair('Impostor') });
    const response = await other.respond(spXml, { email: 'ana@example.com' });
    expect(await refusal(validateSamlResponse(urls, settings, response))).toMatchObject({
      code: 'saml_signature_invalid',
    });
  });

  it('refuses signature wrapping: a second unsigned assertion beside or around the signed one', async () => {
    const signed = Buffer.from(await idp.respond(spXml, { email: 'ana@example.com' }), 'base64').toString();
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signed)![0];
    const evil = assertion
      .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
      .replace(/ID="[^"]+"/, 'ID="_evil"')
      .replace('ana@example.com', 'mallory@example.com');
    // Beside: the evil assertion first.
    const beside = signed.replace(assertion, evil + assertion);
    expect(await refusal(validateSamlResponse(urls, settings, Buffer.from(beside).toString('base64')))).toMatchObject({
      code: 'saml_signature_invalid',
    });
    // Around: the signed one hidden inside the evil one (in its Subject), the evil one at the top.
    const around = signed.replace(assertion, evil.replace('</saml:Subject>', `${assertion}</saml:Subject>`));
    expect(await refusal(validateSamlResponse(urls, settings, Buffer.from(around).toString('base64')))).toMatchObject({
      code: 'saml_signature_invalid',
    });
    // Changed after signing: the address edited inside the signed assertion.
    const edited = signed.replace('ana@example.com', 'mallory@example.com');
    expect(await refusal(validateSamlResponse(urls, settings, Buffer.from(edited).toString('base64')))).toMatchObject({
      code: 'saml_signature_invalid',
    });
  });

  it('refuses another audience, another recipient, another issuer, an expired or too old assertion', async () => {
    const audience = await idp.respond(spXml, { email: 'ana@example.com', audience: 'https://elsewhere.example/sp' });
    expect(await refusal(validateSamlResponse(urls, settings, audience))).toMatchObject({
      code: 'saml_audience_mismatch',
    });
    const recipient = await idp.respond(spXml, {
      email: 'ana@example.com',
      recipient: 'https://elsewhere.example/acs',
    });
    expect(await refusal(validateSamlResponse(urls, settings, recipient))).toMatchObject({
      code: 'saml_audience_mismatch',
    });
    const issuer = await idp.respond(spXml, { email: 'ana@example.com', issuer: 'https://other-idp.example/saml' });
    expect(await refusal(validateSamlResponse(urls, settings, issuer))).toMatchObject({ code: 'saml_issuer_mismatch' });
    const expired = await idp.respond(spXml, { email: 'ana@example.com', issuedMinutesAgo: 10, validForMinutes: -5 });
    expect(await refusal(validateSamlResponse(urls, settings, expired))).toMatchObject({ code: 'saml_expired' });
    const old = await idp.respond(spXml, { email: 'ana@example.com', issuedMinutesAgo: 30, validForMinutes: 60 });
    expect(await refusal(validateSamlResponse(urls, settings, old))).toMatchObject({ code: 'saml_expired' });
  });

  it('refuses a response whose outer InResponseTo differs from the signed one', async () => {
    const signed = Buffer.from(
      await idp.respond(spXml, { email: 'ana@example.com', inResponseTo: '_req-1' }),
      'base64',
    ).toString();
    const changed = signed.replace(/(<samlp:Response[^>]*InResponseTo=")_req-1"/, '$1_req-2"');
    expect(await refusal(validateSamlResponse(urls, settings, Buffer.from(changed).toString('base64')))).toMatchObject({
      code: 'saml_in_response_to_mismatch',
    });
  });
});
