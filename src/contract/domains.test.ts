import { describe, expect, it } from 'vitest';
import { DOMAIN_MESSAGES, normaliseDomain } from './domains';

/** The one normal form of a domain, shared by the form, the server and single sign-on's look-up. */
describe('normaliseDomain', () => {
  it('lower-cases, trims, drops the trailing dot and takes the IDNA form', () => {
    expect(normaliseDomain('  Example.COM. ')).toEqual({ domain: 'example.com' });
    expect(normaliseDomain('Bücher.example')).toEqual({ domain: 'xn--bcher-kva.example' });
    expect(normaliseDomain('xn--bcher-kva.example')).toEqual({ domain: 'xn--bcher-kva.example' });
    expect(normaliseDomain('mail.example.co.uk')).toEqual({ domain: 'mail.example.co.uk' });
  });

  it.each([
    ['http://example.com', DOMAIN_MESSAGES.invalid],
    ['example.com:443', DOMAIN_MESSAGES.invalid],
    ['example..com', DOMAIN_MESSAGES.invalid],
    ['*.example.com', DOMAIN_MESSAGES.wildcard],
    ['10.0.0.1', DOMAIN_MESSAGES.ipAddress],
    ['::1', DOMAIN_MESSAGES.ipAddress],
    ['0x7f.1', DOMAIN_MESSAGES.ipAddress],
    ['com.au', DOMAIN_MESSAGES.publicSuffix('com.au')],
    [`${'a.'.repeat(127)}com`, DOMAIN_MESSAGES.tooLong],
  ])('refuses %j', (input, error) => {
    expect(normaliseDomain(input)).toEqual({ error });
  });
});
