import { describe, expect, it } from 'vitest';
import { rateLimitAddress } from './client-address';

describe('rateLimitAddress (decision 051)', () => {
  it('keeps an IPv4 address whole', () => {
    expect(rateLimitAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitAddress('203.0.113.10')).toBe('203.0.113.10');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const key = '2001:db8:1:2::/64';
    expect(rateLimitAddress('2001:db8:1:2::1')).toBe(key);
    expect(rateLimitAddress('2001:0DB8:0001:0002:ffff:1:2:3')).toBe(key);
    expect(rateLimitAddress('2001:db8:1:2:a:b:c:d')).toBe(key);
    expect(rateLimitAddress('2001:db8:1:2::1%eth0')).toBe(key);
    expect(rateLimitAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitAddress('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitAddress('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(rateLimitAddress('64:ff9b::203.0.113.9')).toBe('64:ff9b:0:0::/64');
  });

  it('takes an IPv4 address seen through a dual-stack socket as that IPv4 address', () => {
    expect(rateLimitAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitAddress('::ffff:cb00:7109')).toBe('203.0.113.9');
  });

  it('leaves what is not an address as it is', () => {
    expect(rateLimitAddress('unknown')).toBe('unknown');
  });
});
