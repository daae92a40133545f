import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOMAIN_MESSAGES, MAX_DOMAINS_PER_ORGANIZATION, type OrganizationDomain } from '../../../contract';
import type { Deps } from '../../context';
import { auditLog, organizationDomains, platformLog } from '../../db/schema';
import { Client, adminAndMember, createTestApp, signUpWithOrganization, type TestApp } from '../../test/harness';
import { startTestDns } from '../../test/dns-server';
import { grantSuperAdmin } from '../super-admin/shell';
import { createTxtLookup } from './dns-check';
import { DNS_CHECKS_PER_MINUTE, createDomainsService } from './domains.service';

/**
 * Verified email domains (issue 43, decision 058) against a real DNS server on loopback: the
 * app's resolver asks it (DNS_SERVERS), and each test publishes or withholds the TXT record.
 */

let t: TestApp;
let dns: Awaited<ReturnType<typeof startTestDns>>;
let root: Client;

beforeAll(async () => {
  dns = await startTestDns();
  t = await createTestApp({ DNS_SERVERS: dns.servers });
  root = new Client(t);
  const account = await root.register();
  expect(await grantSuperAdmin(t.db, account.email)).toBe('granted');
  return () => dns.close();
});

let seq = 0;
/** A domain no other test uses. */
const freshDomain = () => `tenant${++seq}-${Date.now().toString(36)}.example.org`;

async function claim(client: Client, domain: string) {
  const res = await client.post('/api/domains', { domain });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<OrganizationDomain>();
}

const publish = (d: OrganizationDomain, value = d.txtRecordValue) => dns.zone.set(d.txtRecordName, { txt: [value] });
const rowOf = async (id: string) =>
  (await t.db.select().from(organizationDomains).where(eq(organizationDomains.id, id)))[0];
const auditOf = async (organizationId: string, action: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.organizationId, organizationId), eq(auditLog.action, action)));

describe('claiming a domain', () => {
  it('normalises the name and shows the TXT record to publish, pending', async () => {
    const { client: admin, org } = await signUpWithOrganization(t);
    const domain = freshDomain();
    const res = await admin.post('/api/domains', { domain: `  ${domain.toUpperCase()}. ` });
    expect(res.statusCode).toBe(201);
    const created = res.json<OrganizationDomain>();
    expect(created).toMatchObject({
      organizationId: org.id,
      domain,
      status: 'pending',
      txtRecordName: `_pigeonhole.${domain}`,
      verifiedAt: null,
      verifiedBy: null,
    });
    expect(created.txtRecordValue).toMatch(/^pigeonhole-verification=[0-9a-f]{32}$/);
    expect((await admin.get('/api/domains')).json()).toEqual([created]);
    const [entry] = await auditOf(org.id, 'domain.claimed');
    expect(entry).toMatchObject({ targetId: created.id, targetLabel: domain, after: { domain, status: 'pending' } });
  });

  it('stores an internationalised name in its IDNA form', async () => {
    const { client: admin } = await signUpWithOrganization(t);
    const created = await claim(admin, `Bücher-${Date.now().toString(36)}.example`);
    expect(created.domain).toMatch(/^xn--bcher-.*-[a-z0-9]+\.example$/);
  });

  it.each([
    ['', DOMAIN_MESSAGES.required],
    ['https://example.com', DOMAIN_MESSAGES.invalid],
    ['example.com/login', DOMAIN_MESSAGES.invalid],
    ['ana@example.com', DOMAIN_MESSAGES.invalid],
    ['*.example.com', DOMAIN_MESSAGES.wildcard],
    ['192.168.1.20', DOMAIN_MESSAGES.ipAddress],
    ['[::1]', DOMAIN_MESSAGES.ipAddress],
    ['localhost', DOMAIN_MESSAGES.invalid],
    ['com', DOMAIN_MESSAGES.invalid],
    ['co.uk', DOMAIN_MESSAGES.publicSuffix('co.uk')],
    ['github.io', DOMAIN_MESSAGES.publicSuffix('github.io')],
    ['bad_label.example.com', DOMAIN_MESSAGES.invalid],
    ['-lead.example.com', DOMAIN_MESSAGES.invalid],
    [`${'a'.repeat(64)}.example.com`, DOMAIN_MESSAGES.invalid],
  ])('refuses %j with 400 and a message, writing nothing', async (domain, message) => {
    const { client: admin, org } = await signUpWithOrganization(t);
    const res = await admin.post('/api/domains', { domain });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await t.db.select().from(organizationDomains).where(eq(organizationDomains.organizationId, org.id))).toEqual(
      [],
    );
  });

  it('refuses a body without a domain and a domain that is not text', async () => {
    const { client: admin } = await signUpWithOrganization(t);
    for (const body of [{}, { domain: 42 }]) {
      const res = await admin.post('/api/domains', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(DOMAIN_MESSAGES.required);
    }
  });

  it('answers 409 when this organization has the domain already', async () => {
    const { client: admin } = await signUpWithOrganization(t);
    const domain = freshDomain();
    await claim(admin, domain);
    const again = await admin.post('/api/domains', { domain: domain.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'domain_already_claimed', message: DOMAIN_MESSAGES.alreadyClaimed });
  });

  it(`caps an organization at ${MAX_DOMAINS_PER_ORGANIZATION} domains (422, nothing written), even when claimed at once`, async () => {
    const { client: admin, org } = await signUpWithOrganization(t);
    const organizationId = org.id;
    // All at once: the cap is counted under a lock, so a burst cannot slip past it.
    const answers = await Promise.all(
      Array.from({ length: MAX_DOMAINS_PER_ORGANIZATION + 3 }, () =>
        admin.post('/api/domains', { domain: freshDomain() }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(MAX_DOMAINS_PER_ORGANIZATION);
    const refused = answers.filter((r) => r.statusCode !== 201);
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r.statusCode).toBe(422);
      expect(r.json()).toMatchObject({ code: 'too_many_domains', message: DOMAIN_MESSAGES.tooMany });
    }
    const rows = await t.db
      .select()
      .from(organizationDomains)
      .where(eq(organizationDomains.organizationId, organizationId));
    expect(rows).toHaveLength(MAX_DOMAINS_PER_ORGANIZATION);
    expect(await auditOf(organizationId, 'domain.claimed')).toHaveLength(MAX_DOMAINS_PER_ORGANIZATION);
  });

  it('lets several organizations claim one pending domain, and refuses it once another verified it', async () => {
    const first = await signUpWithOrganization(t, 'First Holder');
    const second = await signUpWithOrganization(t, 'Second Claimant');
    const third = await signUpWithOrganization(t, 'Third Claimant');
    const domain = freshDomain();
    const mine = await claim(first.client, domain);
    const theirs = await claim(second.client, domain);
    expect(theirs.txtRecordValue).not.toBe(mine.txtRecordValue);

    publish(mine);
    expect((await first.client.post(`/api/domains/${mine.id}/verify`)).statusCode).toBe(200);

    const refused = await third.client.post('/api/domains', { domain });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'domain_verified_elsewhere',
      message: DOMAIN_MESSAGES.verifiedElsewhere,
    });
    expect(refused.body).not.toContain('First Holder');
    expect(refused.body).not.toContain(first.org.id);
  });
});

describe('verifying by DNS', () => {
  it('verifies on the right token, audited, and a second check answers it as it is', async () => {
    const { client: admin, org, account } = await signUpWithOrganization(t);
    const created = await claim(admin, freshDomain());
    // Other TXT records beside ours (SPF, another service's proof) do not matter.
    dns.zone.set(created.txtRecordName, { txt: ['v=spf1 -all', created.txtRecordValue, 'google-site-verification=x'] });
    const res = await admin.post(`/api/domains/${created.id}/verify`);
    expect(res.statusCode, res.body).toBe(200);
    const verified = res.json<OrganizationDomain>();
    expect(verified).toMatchObject({ id: created.id, status: 'verified', verifiedBy: 'dns' });
    expect(Date.parse(verified.verifiedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(await rowOf(created.id)).toMatchObject({ status: 'verified', verifiedBy: 'dns' });
    expect(dns.asked).toContain(created.txtRecordName);
    const [entry] = await auditOf(org.id, 'domain.verified');
    expect(entry).toMatchObject({
      actorId: account.user.id,
      targetLabel: created.domain,
      after: { status: 'verified', verifiedBy: 'dns' },
    });

    dns.zone.delete(created.txtRecordName);
    const again = await admin.post(`/api/domains/${created.id}/verify`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(verified);
  });

  it('joins a record split in several strings, as DNS carries long values', async () => {
    const { client: admin } = await signUpWithOrganization(t);
    const created = await claim(admin, freshDomain());
    const value = created.txtRecordValue;
    dns.zone.set(created.txtRecordName, { txt: [[value.slice(0, 10), value.slice(10)]] });
    expect((await admin.post(`/api/domains/${created.id}/verify`)).json()).toMatchObject({ status: 'verified' });
  });

  it('refuses a missing record (422) and a wrong token (422), each with the reason, and stays pending', async () => {
    const { client: admin } = await signUpWithOrganization(t);
    const created = await claim(admin, freshDomain());
    const missing = await admin.post(`/api/domains/${created.id}/verify`);
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({
      code: 'txt_record_not_found',
      message: DOMAIN_MESSAGES.recordNotFound(created.txtRecordName),
    });

    publish(created, 'pigeonhole-verification=0123456789abcdef0123456789abcdef');
    const wrong = await admin.post(`/api/domains/${created.id}/verify`);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      code: 'txt_record_mismatch',
      message: DOMAIN_MESSAGES.wrongRecord(created.txtRecordName),
    });
    // Our token at the domain itself, not at _pigeonhole.<domain>, proves nothing.
    dns.zone.delete(created.txtRecordName);
    dns.zone.set(created.domain, { txt: [created.txtRecordValue] });
    expect((await admin.post(`/api/domains/${created.id}/verify`)).statusCode).toBe(422);
    expect((await rowOf(created.id))!.status).toBe('pending');
  });

  it('tells "the DNS did not answer" apart from "no record"', async () => {
    const { client: admin } = await signUpWithOrganization(t);
    const created = await claim(admin, freshDomain());
    dns.zone.set(created.txtRecordName, 'servfail');
    const res = await admin.post(`/api/domains/${created.id}/verify`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'dns_unavailable', message: DOMAIN_MESSAGES.dnsUnavailable });
  });

  it('gives up on a server that never answers, within its deadline', async () => {
    const name = `_pigeonhole.${freshDomain()}`;
    dns.zone.set(name, 'silent');
    const started = Date.now();
    expect(await createTxtLookup([dns.servers], 200)(name)).toEqual({ kind: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(3000);
    // And a server nobody listens on.
    expect(await createTxtLookup(['127.0.0.1:9'], 200)(name)).toEqual({ kind: 'unavailable' });
  });

  it('refuses (409) while another organization holds the domain verified, without naming it', async () => {
    const holder = await signUpWithOrganization(t, 'Holder Inc');
    const late = await signUpWithOrganization(t, 'Late Corp');
    const domain = freshDomain();
    const theirs = await claim(holder.client, domain);
    const mine = await claim(late.client, domain);
    publish(theirs);
    expect((await holder.client.post(`/api/domains/${theirs.id}/verify`)).statusCode).toBe(200);

    publish(mine);
    const res = await late.client.post(`/api/domains/${mine.id}/verify`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'domain_verified_elsewhere', message: DOMAIN_MESSAGES.verifiedElsewhere });
    expect(res.body).not.toContain('Holder Inc');
    expect((await rowOf(mine.id))!.status).toBe('pending');
    expect(await auditOf(late.org.id, 'domain.verified')).toEqual([]);

    // Once the holder lets it go, the other organization's proof holds.
    expect((await holder.client.delete(`/api/domains/${theirs.id}`)).statusCode).toBe(204);
    expect((await late.client.post(`/api/domains/${mine.id}/verify`)).json()).toMatchObject({ status: 'verified' });
  });

  it(`caps checks at ${DNS_CHECKS_PER_MINUTE} a minute per organization (429), not per domain`, async () => {
    const { client: admin } = await signUpWithOrganization(t);
    const a = await claim(admin, freshDomain());
    const b = await claim(admin, freshDomain());
    for (let i = 0; i < DNS_CHECKS_PER_MINUTE; i++) {
      expect((await admin.post(`/api/domains/${i % 2 ? a.id : b.id}/verify`)).statusCode).toBe(422);
    }
    publish(a);
    const limited = await admin.post(`/api/domains/${a.id}/verify`);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited', message: DOMAIN_MESSAGES.rateLimited });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another organization has its own allowance.
    const other = await signUpWithOrganization(t);
    const c = await claim(other.client, freshDomain());
    publish(c);
    expect((await other.client.post(`/api/domains/${c.id}/verify`)).statusCode).toBe(200);
  });
});

describe('who may see and change domains', () => {
  it('refuses members (403) every call, and another organization’s domain answers 404', async () => {
    const { admin, member, org } = await adminAndMember(t);
    const created = await claim(admin, freshDomain());
    for (const res of [
      await member.get('/api/domains'),
      await member.post('/api/domains', { domain: freshDomain() }),
      await member.post(`/api/domains/${created.id}/verify`),
      await member.delete(`/api/domains/${created.id}`),
    ]) {
      expect(res.statusCode).toBe(403);
    }

    const stranger = await signUpWithOrganization(t);
    expect((await stranger.client.get('/api/domains')).json()).toEqual([]);
    for (const res of [
      await stranger.client.post(`/api/domains/${created.id}/verify`),
      await stranger.client.delete(`/api/domains/${created.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(DOMAIN_MESSAGES.notFound);
    }
    expect((await rowOf(created.id))!.organizationId).toBe(org.id);
    expect((await admin.post('/api/domains/not-a-uuid/verify')).statusCode).toBe(400);
  });

  it('removes a domain, audited', async () => {
    const { client: admin, org } = await signUpWithOrganization(t);
    const created = await claim(admin, freshDomain());
    expect((await admin.delete(`/api/domains/${created.id}`)).statusCode).toBe(204);
    expect(await rowOf(created.id)).toBeUndefined();
    expect((await admin.delete(`/api/domains/${created.id}`)).statusCode).toBe(404);
    const [entry] = await auditOf(org.id, 'domain.removed');
    expect(entry).toMatchObject({ targetLabel: created.domain, before: { domain: created.domain, status: 'pending' } });
  });
});

describe('the super admin console', () => {
  it('lists an organization’s domains and verifies a pending one, in both logs', async () => {
    const { client: admin, org } = await signUpWithOrganization(t, 'Console Verified');
    const created = await claim(admin, freshDomain());
    const list = await root.get(`/api/super-admin/organizations/${org.id}/domains`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([{ ...created, organizationName: 'Console Verified' }]);

    const res = await root.post(`/api/super-admin/organizations/${org.id}/domains/${created.id}/verify`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'verified',
      verifiedBy: 'super_admin',
      organizationName: 'Console Verified',
    });
    expect((await admin.get('/api/domains')).json()).toMatchObject([{ id: created.id, status: 'verified' }]);
    expect(await auditOf(org.id, 'domain.verified')).toMatchObject([{ after: { verifiedBy: 'super_admin' } }]);
    const platform = await t.db
      .select()
      .from(platformLog)
      .where(and(eq(platformLog.action, 'organization.domain_verified'), eq(platformLog.targetId, org.id)));
    expect(platform).toMatchObject([{ targetLabel: 'Console Verified', after: { domain: created.domain } }]);
  });

  it('refuses a domain another organization holds verified (409), another organization’s id (404), and non-operators (403)', async () => {
    const holder = await signUpWithOrganization(t);
    const other = await signUpWithOrganization(t);
    const domain = freshDomain();
    const held = await claim(holder.client, domain);
    const pending = await claim(other.client, domain);
    publish(held);
    expect((await holder.client.post(`/api/domains/${held.id}/verify`)).statusCode).toBe(200);

    const refused = await root.post(`/api/super-admin/organizations/${other.org.id}/domains/${pending.id}/verify`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('domain_verified_elsewhere');
    // The domain named under an organization that is not its own.
    expect(
      (await root.post(`/api/super-admin/organizations/${holder.org.id}/domains/${pending.id}/verify`)).statusCode,
    ).toBe(404);
    expect((await root.get(`/api/super-admin/organizations/${crypto.randomUUID()}/domains`)).statusCode).toBe(404);
    expect((await holder.client.get(`/api/super-admin/organizations/${holder.org.id}/domains`)).statusCode).toBe(403);
    expect(
      (await holder.client.post(`/api/super-admin/organizations/${other.org.id}/domains/${pending.id}/verify`))
        .statusCode,
    ).toBe(403);
  });
});

describe('which organization signs an address in (for single sign-on)', () => {
  it('answers the organization that verified the address’s domain, and none for a pending one', async () => {
    const { client: admin, org } = await signUpWithOrganization(t);
    const domain = freshDomain();
    const created = await claim(admin, domain);
    // The service as single sign-on will hold it (it needs the database and the configuration only).
    const domains = createDomainsService({ db: t.db, config: t.config } as Deps);
    expect(await domains.organizationForEmail(`ana@${domain}`)).toBeUndefined();
    publish(created);
    await admin.post(`/api/domains/${created.id}/verify`);
    expect(await domains.organizationForEmail(`Ana.Lopez@${domain.toUpperCase()}`)).toEqual({
      organizationId: org.id,
      domainId: created.id,
    });
    // Exact domains only: a sub-domain needs its own proof.
    expect(await domains.organizationForEmail(`ana@mail.${domain}`)).toBeUndefined();
    expect(await domains.organizationForEmail('not an address')).toBeUndefined();
  });
});
