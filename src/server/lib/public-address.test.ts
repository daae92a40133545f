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
