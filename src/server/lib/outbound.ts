import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import tls from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import { isPublicAddress } from './public-address';

/**
 * Connections the server opens to addresses its tenants chose (webhooks, SMS providers, SMTP
 * servers). The host is resolved once, inside the connection, and the socket goes to the address
 * that was checked: a DNS answer that changes between a check and the connect (rebinding) cannot
 * slip a private address through. `allowPrivate` (ALLOW_PRIVATE_TARGETS, local testing only)
 * turns the guard off.
 */

const PRIVATE_TARGET_MESSAGE = 'is not a public address (private, loopback and link-local addresses are refused)';

export class PrivateTargetError extends Error {
  readonly code = 'EPRIVATETARGET';
  constructor(host: string) {
    super(`${host} ${PRIVATE_TARGET_MESSAGE}`);
  }
}

/** A socket `lookup` that refuses a host any of whose addresses is not public. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
      return callback(new PrivateTargetError(hostname), '', 0);
    }
    if (options.all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    const [first] = addresses;
    callback(null, first!.address, first!.family);
  });
};

/** A literal IP in a URL or host never goes through `lookup`: it is judged here. */
function assertLiteralIsPublic(host: string) {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare) && !isPublicAddress(bare)) throw new PrivateTargetError(bare);
}

const guardedAgent = new Agent({ connect: { lookup: publicOnlyLookup } });

export type OutboundFetch = (url: string, init: Parameters<typeof undiciFetch>[1]) => ReturnType<typeof undiciFetch>;

/** fetch for tenant-chosen URLs: http(s) only, public addresses only (unless allowed). */
export function outboundFetch(allowPrivate: boolean): OutboundFetch {
  return async (url, init) => {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new PrivateTargetError(parsed.protocol);
    if (allowPrivate) return undiciFetch(url, init);
    assertLiteralIsPublic(parsed.hostname);
    return undiciFetch(url, { ...init, dispatcher: guardedAgent });
  };
}

/**
 * nodemailer's `getSocket` for a tenant's SMTP server: the same guard for the TCP (and, on port
 * 465, TLS) connection nodemailer would open itself; STARTTLS then upgrades this socket.
 */
export function guardedSmtpSocket(allowPrivate: boolean) {
  return (
    options: { host?: string; port?: number | string; secure?: boolean; servername?: string },
    callback: (err: Error | null, socket?: { connection: net.Socket; secured: boolean }) => void,
  ) => {
    const host = options.host ?? 'localhost';
    const port = Number(options.port ?? (options.secure ? 465 : 25));
    try {
      if (!allowPrivate) assertLiteralIsPublic(host);
    } catch (err) {
      callback(err as Error);
      return;
    }
    const lookup = allowPrivate ? undefined : publicOnlyLookup;
    const socket = options.secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : (options.servername ?? host), lookup })
      : net.connect({ host, port, lookup });
    const ready = options.secure ? 'secureConnect' : 'connect';
    // Reported like nodemailer's own connection failures, so callers word them the same way.
    const onError = (err: Error) =>
      callback(err instanceof PrivateTargetError ? err : Object.assign(err, { code: 'ECONNECTION' }));
    socket.once('error', onError);
    socket.once(ready, () => {
      socket.removeListener('error', onError);
      callback(null, { connection: socket, secured: Boolean(options.secure) });
    });
  };
}
