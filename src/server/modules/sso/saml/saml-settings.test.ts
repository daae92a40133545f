import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, organizationDomains, ssoConnections } from '../../../db/schema';
import { createTestApp, joinAs, signUpWithOrganization, type TestApp } from '../../../test/harness';
import { createTestIdp, makeKeyPair } from '../../../test/saml-idp';
import { fetchIdpMetadata, MAX_METADATA_BYTES } from './idp-metadata';

/**
 * The admin's SAML settings through the shared connection routes (PUT /api/sso/connection): the
 * provider's metadata pasted or fetched from its URL (a real HTTP server on loopback), read into
 * entity id, sign-in URL and certificates; refusals with their reasons and nothing written; and
 * what the admin registers at the provider for us.
 */

const APP_URL = 'http://pigeonhole.test';
let t: TestApp;
const idp = createTestIdp();
let server: http.Server;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ APP_URL });
  server = http.createServer((req, res) => {
    if (req.url === '/metadata')
      return void res.writeHead(200, { 'content-type': 'application/xml' }).end(idp.metadataXml);
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(`<x>${'a'.repeat(MAX_METADATA_BYTES + 10)}</x>`);
      return;
    }
    if (req.url === '/redirect') return void res.writeHead(302, { location: '/metadata' }).end();
    res.writeHead(500).end('broken');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function adminWithDomain(app: TestApp = t) {
  const { client, org } = await signUpWithOrganization(app);
  const domain = `settings-${crypto.randomBytes(4).toString('hex')}.example.org`;
  await app.db.insert(organizationDomains).values({
    organizationId: org.id,
    domain,
    verificationToken: crypto.randomBytes(16).toString('hex'),
    status: 'verified',
    verifiedAt: new Date(),
    verifiedBy: 'dns',
  });
  return { client, org, domain };
}

const connectionOf = async (organizationId: string) =>
  (await t.db.select().from(ssoConnections).where(eq(ssoConnections.organizationId, organizationId)))[0];

describe('SAML settings', () => {
  it('reads pasted metadata into the connection, audited, and keeps it when saved again without it', async () => {
    const { client, org } = await adminWithDomain();
    const res = await client.put('/api/sso/connection', {
      protocol: 'saml',
      enabled: true,
      idpMetadataXml: idp.metadataXml,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      protocol: 'saml',
      enabled: true,
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      idpMetadataUrl: null,
    });
    expect(res.json<{ idpCertificates: string[] }>().idpCertificates).toHaveLength(1);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, org.id), eq(auditLog.action, 'sso.connection_saved')));
    expect(entry).toMatchObject({ targetLabel: idp.entityId });

    const again = await client.put('/api/sso/connection', { protocol: 'saml', enabled: true, allowIdpInitiated: true });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ idpEntityId: idp.entityId, allowIdpInitiated: true });
  });

  it('fetches the metadata from its URL (loopback allowed in tests)', async () => {
    const { client, org } = await adminWithDomain();
    const res = await client.put('/api/sso/connection', { protocol: 'saml', idpMetadataUrl: `${base}/metadata` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ idpEntityId: idp.entityId, idpMetadataUrl: `${base}/metadata` });
    expect((await connectionOf(org.id))?.idpMetadataXml).toBeNull();
  });

  it.each([
    [{ idpMetadataXml: '<EntityDescriptor' }, 400, 'invalid_saml_metadata', /well-formed|identity provider/],
    [{ idpMetadataXml: '<a/>' }, 400, 'invalid_saml_metadata', /no identity provider/],
    [{}, 400, 'saml_metadata_required', /metadata XML or enter its metadata URL/],
    [{ idpMetadataUrl: 'ftp://example.com/metadata' }, 400, 'invalid_saml_metadata', /https/],
  ])('refuses %j with %i %s and writes nothing', async (fields, status, code, message) => {
    const { client, org } = await adminWithDomain();
    const res = await client.put('/api/sso/connection', { protocol: 'saml', ...fields });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ code });
    expect(res.json<{ message: string }>().message).toMatch(message);
    expect(await connectionOf(org.id)).toBeUndefined();
  });

  it('says why a metadata URL could not be fetched: an error status, a redirect, too large', async () => {
    const { client, org } = await adminWithDomain();
    for (const [path, reason] of [
      ['/broken', /answered 500/],
      ['/redirect', /answered 302/],
      ['/huge', /larger than/],
    ] as const) {
      const res = await client.put('/api/sso/connection', { protocol: 'saml', idpMetadataUrl: `${base}${path}` });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: 'saml_metadata_fetch_failed' });
      expect(res.json<{ message: string }>().message).toMatch(reason);
    }
    expect(await connectionOf(org.id)).toBeUndefined();
  });

  it('refuses private addresses and plain http where private targets are not allowed (production)', async () => {
    await expect(fetchIdpMetadata(`${base}/metadata`, false)).rejects.toMatchObject({ code: 'invalid_saml_metadata' });
    await expect(fetchIdpMetadata(`https://127.0.0.1:${new URL(base).port}/metadata`, false)).rejects.toMatchObject({
      code: 'saml_metadata_fetch_failed',
      message: expect.stringMatching(/not public/),
    });
    await expect(fetchIdpMetadata('https://localhost:8443/metadata', false)).rejects.toMatchObject({
      message: expect.stringMatching(/not public/),
    });
  });

  it('shows the admin what to register at the provider; members are refused', async () => {
    const { client, org } = await adminWithDomain();
    const res = await client.get('/api/sso/saml/service-provider');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      entityId: `${APP_URL}/api/sso/saml/${org.id}/metadata`,
      acsUrl: `${APP_URL}/api/sso/saml/${org.id}/acs`,
      metadataUrl: `${APP_URL}/api/sso/saml/${org.id}/metadata`,
    });
    const { client: member } = await joinAs(t, org.id);
    expect((await member.get('/api/sso/saml/service-provider')).statusCode).toBe(403);
  });

  it("signs AuthnRequests with the server's key pair; a provider wanting them signed is refused without one", async () => {
    const wanting = idp.metadataXml.replace(/WantAuthnRequestsSigned="false"/, 'WantAuthnRequestsSigned="true"');
    // No SAML_SP_KEY_FILE here: refused at the field, nothing saved.
    const { client, org } = await adminWithDomain();
    const refused = await client.put('/api/sso/connection', {
      protocol: 'saml',
      enabled: true,
      idpMetadataXml: wanting,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'saml_signing_unavailable',
      errors: [{ path: 'idpMetadataXml', message: expect.stringContaining('SAML_SP_KEY_FILE') }],
    });
    expect(await connectionOf(org.id)).toBeUndefined();

    // A server with a key pair: metadata with the certificate, requests signed with the key.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saml-sp-'));
    const keys = makeKeyPair('Pigeonhole SP');
    fs.writeFileSync(path.join(dir, 'sp.key'), keys.privateKey);
    fs.writeFileSync(path.join(dir, 'sp.crt'), keys.certificate);
    const signed = await createTestApp({
      APP_URL,
      SAML_SP_KEY_FILE: path.join(dir, 'sp.key'),
      SAML_SP_CERT_FILE: path.join(dir, 'sp.crt'),
    });
    fs.rmSync(dir, { recursive: true, force: true });
    const admin = await adminWithDomain(signed);
    const saved = await admin.client.put('/api/sso/connection', {
      protocol: 'saml',
      enabled: true,
      idpMetadataXml: wanting,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const metadata = (await signed.app.inject({ method: 'GET', url: `/api/sso/saml/${admin.org.id}/metadata` })).body;
    expect(metadata).toContain('AuthnRequestsSigned="true"');
    const certBody = keys.certificate.replace(/-----[^-]+-----|\s+/g, '');
    expect(metadata.replace(/\s+/g, '')).toContain(certBody);
    const start = await signed.app.inject({
      method: 'GET',
      url: `/api/sso/start?${new URLSearchParams({ email: `ana@${admin.domain}` })}`,
    });
    expect(start.statusCode, start.body).toBe(302);
    const url = new URL(start.headers.location as string);
    const raw = Object.fromEntries(
      url.search
        .slice(1)
        .split('&')
        .map((p) => [p.split('=')[0], p]),
    );
    const octets = [raw.SAMLRequest, raw.RelayState, raw.SigAlg].join('&');
    const signature = Buffer.from(url.searchParams.get('Signature') ?? '', 'base64');
    expect(
      crypto.verify('sha256', Buffer.from(octets), new crypto.X509Certificate(keys.certificate).publicKey, signature),
    ).toBe(true);
  });
});
