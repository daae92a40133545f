import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultPoolSize, loadConfig, startupWarnings } from './config';
import { makeKeyPair } from './test/saml-idp';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c).toMatchObject({
      env: 'development',
      port: 5000,
      host: '127.0.0.1',
      dataDir: '/srv/app/data',
      seedDemo: true,
      databaseUrl: undefined,
    });
  });

  it('sizes the connection pool by the CPUs unless told', () => {
    expect([1, 2, 4, 8, 16].map(defaultPoolSize)).toEqual([6, 8, 12, 20, 20]);
    expect(loadConfig({}, '/srv/app').databasePoolSize).toBe(defaultPoolSize(os.availableParallelism()));
    expect(loadConfig({ DATABASE_POOL_SIZE: '30' }, '/srv/app').databasePoolSize).toBe(30);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' }, '/srv/app')).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('requires a direct DATABASE_LISTEN_URL behind a transaction pooler, and takes a replica', () => {
    expect(() => loadConfig({ DATABASE_POOLER: 'transaction' }, '/srv/app')).toThrow(
      /DATABASE_LISTEN_URL: required with DATABASE_POOLER=transaction/,
    );
    expect(() => loadConfig({ DATABASE_POOLER: 'session' }, '/srv/app')).toThrow(/DATABASE_POOLER/);
    const c = loadConfig(
      {
        DATABASE_POOLER: 'transaction',
        DATABASE_LISTEN_URL: 'postgres://db/x',
        DATABASE_REPLICA_URL: 'postgres://r/x',
      },
      '/srv/app',
    );
    expect(c).toMatchObject({ databasePooler: 'transaction', databaseReplicaUrl: 'postgres://r/x' });
    expect(loadConfig({}, '/srv/app')).toMatchObject({ databasePooler: null, databaseReplicaUrl: undefined });
  });

  it('turns demo seeding off in production and parses lists', () => {
    const c = loadConfig(
      { NODE_ENV: 'production', APP_URL: 'https://desk.example.com', SUPER_ADMIN_EMAILS: ' A@x.com, b@y.com ,' },
      '/srv/app',
    );
    expect(c.seedDemo).toBe(false);
    expect(c.superAdminEmails).toEqual(['a@x.com', 'b@y.com']);
  });

  it('exposes /metrics only with a token long enough not to be guessed (METRICS_TOKEN)', () => {
    expect(loadConfig({}, '/srv/app').metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }, '/srv/app').metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }, '/srv/app').metricsToken).toBe('a'.repeat(16));
    expect(() => loadConfig({ METRICS_TOKEN: 'secret' }, '/srv/app')).toThrow(/METRICS_TOKEN: at least 16 characters/);
  });

  it('takes the DNS servers of domain verification as addresses with optional ports (DNS_SERVERS)', () => {
    expect(loadConfig({}, '/srv/app').dnsServers).toEqual([]);
    expect(
      loadConfig({ DNS_SERVERS: ' 1.1.1.1, 127.0.0.1:5353 ,[::1]:53,2001:db8::1' }, '/srv/app').dnsServers,
    ).toEqual(['1.1.1.1', '127.0.0.1:5353', '[::1]:53', '2001:db8::1']);
    for (const bad of ['dns.example.com', '127.0.0.1:0', '127.0.0.1:70000', '[::1', '1.2.3']) {
      expect(() => loadConfig({ DNS_SERVERS: bad }, '/srv/app'), bad).toThrow(/DNS_SERVERS: not an IP address/);
    }
  });

  it("takes Slack's Web API base (SLACK_API_URL) as the SDK joins method names to it: ending in '/'", () => {
    expect(loadConfig({}, '/srv/app').slackApiUrl).toBe('https://slack.com/api/');
    expect(loadConfig({ SLACK_API_URL: 'http://127.0.0.1:9000/api' }, '/srv/app').slackApiUrl).toBe(
      'http://127.0.0.1:9000/api/',
    );
    expect(() => loadConfig({ SLACK_API_URL: 'slack' }, '/srv/app')).toThrow(/SLACK_API_URL/);
  });

  it('refuses to start in production without APP_URL: links must never come from a request', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, '/srv/app')).toThrow(/APP_URL: required in production/);
    expect(loadConfig({ NODE_ENV: 'development' }, '/srv/app').appUrl).toBeUndefined();
  });

  it("reads the SAML signing key pair: both files or neither, and the certificate must be the key's", () => {
    expect(loadConfig({}, '/srv/app').samlSpSigning).toBeUndefined();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saml-sp-config-'));
    try {
      const one = makeKeyPair('SP one');
      const two = makeKeyPair('SP two');
      fs.writeFileSync(path.join(dir, 'one.key'), one.privateKey);
      fs.writeFileSync(path.join(dir, 'one.crt'), one.certificate);
      fs.writeFileSync(path.join(dir, 'two.crt'), two.certificate);
      // Relative to the root directory, as DATA_DIR is.
      expect(loadConfig({ SAML_SP_KEY_FILE: 'one.key', SAML_SP_CERT_FILE: 'one.crt' }, dir).samlSpSigning).toEqual(one);
      expect(() => loadConfig({ SAML_SP_KEY_FILE: 'one.key' }, dir)).toThrow(/SAML_SP_CERT_FILE: required/);
      expect(() => loadConfig({ SAML_SP_KEY_FILE: 'one.key', SAML_SP_CERT_FILE: 'two.crt' }, dir)).toThrow(
        /is not the certificate of SAML_SP_KEY_FILE/,
      );
      expect(() => loadConfig({ SAML_SP_KEY_FILE: 'one.crt', SAML_SP_CERT_FILE: 'one.crt' }, dir)).toThrow(
        /not a PEM private key/,
      );
      expect(() => loadConfig({ SAML_SP_KEY_FILE: 'none.key', SAML_SP_CERT_FILE: 'one.crt' }, dir)).toThrow(
        /SAML_SP_KEY_FILE: cannot read/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has a sales address for the landing page, and refuses one that is not an email', () => {
    expect(loadConfig({}, '/srv/app').salesEmail).toBe('sales@pigeonhole.local');
    expect(loadConfig({ SALES_EMAIL: 'sales@desk.example.com' }, '/srv/app').salesEmail).toBe('sales@desk.example.com');
    expect(() => loadConfig({ SALES_EMAIL: 'sales desk' }, '/srv/app')).toThrow(/SALES_EMAIL/);
  });

  it('runs the demo payment provider only where it is asked for or harmless (DEMO_PAYMENTS)', () => {
    const prod = { NODE_ENV: 'production', APP_URL: 'https://desk.example.com' };
    // Default: on outside production without provider keys; off with any key; off in production.
    expect(loadConfig({}, '/srv/app').demoPayments).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }, '/srv/app').demoPayments).toBe(true);
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' }, '/srv/app').demoPayments).toBe(false);
    expect(loadConfig({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's' }, '/srv/app').demoPayments).toBe(false);
    // Half of PayPal's pair is refused at start, naming the missing half.
    expect(() => loadConfig({ PAYPAL_CLIENT_ID: 'id' }, '/srv/app')).toThrow(/PAYPAL_CLIENT_SECRET: required/);
    expect(() => loadConfig({ PAYPAL_CLIENT_SECRET: 's' }, '/srv/app')).toThrow(/PAYPAL_CLIENT_ID: required/);
    expect(loadConfig(prod, '/srv/app').demoPayments).toBe(false);
    // Explicit: on in production only when said so; off anywhere.
    expect(loadConfig({ ...prod, DEMO_PAYMENTS: 'true' }, '/srv/app').demoPayments).toBe(true);
    expect(loadConfig({ DEMO_PAYMENTS: 'false' }, '/srv/app').demoPayments).toBe(false);
    // Never beside a real key.
    expect(() => loadConfig({ DEMO_PAYMENTS: 'true', STRIPE_SECRET_KEY: 'sk_test_x' }, '/srv/app')).toThrow(
      /DEMO_PAYMENTS: true cannot be combined with STRIPE_SECRET_KEY/,
    );
    expect(() => loadConfig({ DEMO_PAYMENTS: 'yes' }, '/srv/app')).toThrow(/DEMO_PAYMENTS/);
    // Said so in production: started, and warned about loudly (buildApp logs it).
    expect(startupWarnings(loadConfig({ ...prod, DEMO_PAYMENTS: 'true' }, '/srv/app'))).toEqual([
      expect.stringMatching(/^DEMO_PAYMENTS=true in production/),
    ]);
    expect(startupWarnings(loadConfig(prod, '/srv/app'))).toEqual([]);
    expect(startupWarnings(loadConfig({}, '/srv/app'))).toEqual([]);
  });

  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', NODE_ENV: 'staging' }, '/')).toThrow(
      /PORT[\s\S]*NODE_ENV|NODE_ENV[\s\S]*PORT/,
    );
  });
});
