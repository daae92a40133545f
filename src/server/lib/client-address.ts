import net from 'node:net';

/**
 * The part of a client's address a per-address rate limit counts by (decision 051). An IPv4
 * address is one subscriber's, so it counts alone. An IPv6 subscriber is routinely given a whole
 * /64 (SLAAC, privacy addresses: a new one per connection if it likes), so one caller could walk
 * around a limit keyed on the full address by changing its last 64 bits: the /64 counts as one.
 * An IPv4 address seen through a dual-stack socket (`::ffff:203.0.113.9`) is that IPv4 address.
 * Anything else (not an address: a test's made-up value) is its own key.
 */
export function rateLimitAddress(ip: string): string {
  // A scoped address (fe80::1%eth0): the zone names the interface, not the client.
  const address = ip.split('%')[0]!;
  if (!net.isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const first = parse(head);
  const last = parse(tail);
  const zeros = tail === undefined ? [] : Array<number>(8 - first.length - last.length).fill(0);
  return [...first, ...zeros, ...last];
}
