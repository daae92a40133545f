import dns from 'node:dns/promises';
import net from 'node:net';

/** Addresses a server-side request must never reach in production (SSRF): private, loopback, link-local and the like. */
const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: an IPv4 address in disguise
  ['2001:db8::', 32], // documentation
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

/**
 * IPv6 forms that carry an IPv4 address inside them, judged as that IPv4 address: the deprecated
 * IPv4-compatible ::a.b.c.d (::/96), NAT64 64:ff9b::/96, and 6to4 2002:AABB:CCDD::/48. A
 * gateway on the path turns them into the IPv4 address, private ones included.
 */
function embeddedIpv4(address: string): string | undefined {
  const words = ipv6Words(address);
  if (!words) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  if (words.slice(0, 6).every((w) => w === 0) && (words[6] !== 0 || words[7]! > 1)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) {
    return v4(words[6]!, words[7]!);
  }
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return undefined;
}

/** The eight 16-bit words of an IPv6 address (a dotted IPv4 tail included), or undefined. */
function ipv6Words(address: string): number[] | undefined {
  if (net.isIP(address) !== 6) return undefined;
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const fill = tail === undefined ? [] : Array<number>(8 - left.length - right.length).fill(0);
  const words = [...left, ...fill, ...right];
  return words.length === 8 ? words : undefined;
}

export function isPublicAddress(address: string): boolean {
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
  // (BlockList already applies IPv4 rules to it; no ::ffff:0:0/96 rule, which it would apply to every IPv4.)
  const family = net.isIP(address);
  if (family === 0) return false;
  const inner = family === 6 ? embeddedIpv4(address) : undefined;
  if (inner !== undefined) return isPublicAddress(inner);
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Whether a URL may be called from the server: http(s) only, and every address its host resolves
 * to public. Check at save time and again at send time (DNS can change between the two).
 */
export async function isPublicUrl(url: string): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return isPublicAddress(host);
  try {
    const addresses = await dns.lookup(host, { all: true, verbatim: true });
    return addresses.length > 0 && addresses.every((a) => isPublicAddress(a.address));
  } catch {
    return false;
  }
}
