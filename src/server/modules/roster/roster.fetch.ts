import crypto from 'node:crypto';
import dns from 'node:dns/promises';
import net from 'node:net';
import SftpClient from 'ssh2-sftp-client';
import { ROSTER_MAX_BYTES, ROSTER_MESSAGES } from '../../../contract';
import { outboundFetch } from '../../lib/outbound';
import { isPublicAddress, isPublicUrl } from '../../lib/public-address';

/**
 * Fetching a roster file from where the organization keeps it. Both ways go only to public
 * addresses (unless ALLOW_PRIVATE_TARGETS, for local testing), with a size cap and a timeout:
 * the URL or host is the tenant's choice, so it is an SSRF surface like the webhooks.
 */

const ROSTER_FETCH_TIMEOUT_MS = 30_000;

/** A fetch that failed: the message the run records and the admins read. */
export class RosterFetchError extends Error {}

export type RosterLocation =
  | { kind: 'https'; url: string; headerName: string | null; headerValue: string | null }
  | {
      kind: 'sftp';
      host: string;
      port: number;
      path: string;
      username: string;
      sftpAuth: 'password' | 'private_key';
      secret: string | null;
      /** The fingerprint the server must present; null: any, and the one seen is answered. */
      hostKey: string | null;
    };

/** The file's text, and for SFTP the fingerprint of the host key the server presented. */
export type RosterFile = { text: string; hostKey?: string };

/** OpenSSH's SHA-256 fingerprint of a host key blob (`ssh-keygen -lf` prints the same). */
export const hostKeyFingerprint = (key: Buffer) =>
  `SHA256:${crypto.createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

export type FetchOptions = { allowPrivateTargets: boolean; maxBytes?: number; timeoutMs?: number };

const tooLarge = (max: number) =>
  new RosterFetchError(`The roster file is larger than ${Math.round(max / 1048576)} MB`);

/**
 * HTTPS (plain HTTP only where private targets are allowed: local testing). The connection goes
 * to the address checked (lib/outbound.ts, no DNS rebinding); redirects are refused, so a public
 * URL cannot bounce the request inside; the body is read up to the cap and no further.
 */
async function fetchHttps(source: Extract<RosterLocation, { kind: 'https' }>, options: FetchOptions) {
  const max = options.maxBytes ?? ROSTER_MAX_BYTES;
  const timeout = options.timeoutMs ?? ROSTER_FETCH_TIMEOUT_MS;
  if (!options.allowPrivateTargets && !(await isPublicUrl(source.url))) {
    throw new RosterFetchError(ROSTER_MESSAGES.privateTarget);
  }
  const headers: Record<string, string> = {
    accept: 'text/csv, text/plain, */*',
    'user-agent': 'Pigeonhole-Roster/1.0',
  };
  if (source.headerName && source.headerValue) headers[source.headerName] = source.headerValue;
  let res;
  try {
    res = await outboundFetch(options.allowPrivateTargets)(source.url, {
      method: 'GET',
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeout),
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    if (timedOut) throw new RosterFetchError(`The roster server did not answer within ${timeout / 1000} s`);
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new RosterFetchError(`The roster could not be fetched: ${cause}`);
  }
  if (res.status < 200 || res.status >= 300) {
    await res.body?.cancel().catch(() => undefined);
    throw new RosterFetchError(`The roster server answered ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? 'NaN');
  if (declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(max);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body ?? []) {
      size += chunk.byteLength;
      if (size > max) throw tooLarge(max);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof RosterFetchError) throw err;
    throw new RosterFetchError(`The roster download failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The address to connect to: the host resolved once and checked, so the connection goes where it was checked. */
async function checkedAddress(host: string, allowPrivate: boolean): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare)) {
    if (!allowPrivate && !isPublicAddress(bare)) throw new RosterFetchError(ROSTER_MESSAGES.privateTarget);
    return bare;
  }
  let addresses: Array<{ address: string }>;
  try {
    addresses = await dns.lookup(bare, { all: true, verbatim: true });
  } catch {
    throw new RosterFetchError(`The SFTP host ${bare} could not be resolved`);
  }
  if (addresses.length === 0) throw new RosterFetchError(`The SFTP host ${bare} could not be resolved`);
  if (!allowPrivate && addresses.some((a) => !isPublicAddress(a.address))) {
    throw new RosterFetchError(ROSTER_MESSAGES.privateTarget);
  }
  return addresses[0]!.address;
}

/** SFTP with a password or a private key (ssh2-sftp-client); the file's size is checked before it is read. */
async function fetchSftp(source: Extract<RosterLocation, { kind: 'sftp' }>, options: FetchOptions) {
  const max = options.maxBytes ?? ROSTER_MAX_BYTES;
  const timeout = options.timeoutMs ?? ROSTER_FETCH_TIMEOUT_MS;
  const address = await checkedAddress(source.host, options.allowPrivateTargets);
  const client = new SftpClient('pigeonhole-roster');
  let connected = false;
  let seen: string | undefined;
  const work = (async () => {
    try {
      await client.connect({
        host: address,
        port: source.port,
        username: source.username,
        // Checked before any credential is sent: a password never reaches a server that is not the one kept.
        hostVerifier: (key: Buffer) => {
          seen = hostKeyFingerprint(key);
          return source.hostKey === null || seen === source.hostKey;
        },
        ...(source.sftpAuth === 'password' ? { password: source.secret ?? '' } : { privateKey: source.secret ?? '' }),
        readyTimeout: timeout,
        retries: 0,
      });
    } catch (err) {
      if (seen && source.hostKey !== null && seen !== source.hostKey) {
        throw new RosterFetchError(ROSTER_MESSAGES.hostKeyChanged(seen, source.hostKey));
      }
      throw err;
    }
    connected = true;
    const stats = await client.stat(source.path);
    if (!stats.isFile) throw new RosterFetchError(`${source.path} is not a file`);
    if (stats.size > max) throw tooLarge(max);
    const data = await client.get(source.path);
    const hostKey = seen!;
    if (Buffer.isBuffer(data)) return { text: data.toString('utf8'), hostKey };
    if (typeof data === 'string') return { text: data, hostKey };
    throw new RosterFetchError('The SFTP server sent no file');
  })();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new RosterFetchError(`The SFTP server did not answer within ${timeout / 1000} s`)),
          timeout,
        );
      }),
    ]);
  } catch (err) {
    if (err instanceof RosterFetchError) throw err;
    throw new RosterFetchError(`SFTP: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
    if (connected) await client.end().catch(() => undefined);
  }
}

/** The roster file, or a RosterFetchError saying why not. */
export async function fetchRoster(source: RosterLocation, options: FetchOptions): Promise<RosterFile> {
  return source.kind === 'https' ? { text: await fetchHttps(source, options) } : fetchSftp(source, options);
}
