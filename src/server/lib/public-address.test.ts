import { describe, expect, it } from 'vitest';
import { isPublicAddress, isPublicUrl } from './public-address';

describe('public addresses (webhook SSRF guard)', () => {
  it('refuses private, loopback, link-local and mapped addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(a), a).toBe(true);
  });

  it('checks URLs by scheme and by every address the host resolves to', async () => {
    expect(await isPublicUrl('http://127.0.0.1:8080/hook')).toBe(false);
    expect(await isPublicUrl('http://localhost/hook')).toBe(false);
    expect(await isPublicUrl('http://[::1]/hook')).toBe(false);
    expect(await isPublicUrl('ftp://93.184.216.34/hook')).toBe(false);
    expect(await isPublicUrl('not a url')).toBe(false);
    expect(await isPublicUrl('https://93.184.216.34/hook')).toBe(true);
  });
});

describe('IPv6 forms that carry an IPv4 address', () => {
  it('judges ::a.b.c.d, NAT64 and 6to4 by the IPv4 address inside', () => {
    for (const a of [
      '::127.0.0.1',
      '::7f00:1',
      '::10.0.0.1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe', // 169.254.169.254
      '64:ff9b:1::1',
      '2002:7f00:0001::1', // 6to4 of 127.0.0.1
      '2002:c0a8:0101::', // 6to4 of 192.168.1.1
      '2001:0:4136:e378::1', // Teredo
      '::',
      '::1',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ['64:ff9b::8.8.8.8', '2002:0808:0808::1', '::ffff:8.8.8.8'])
      expect(isPublicAddress(a), a).toBe(true);
  });
});
