import { Resolver } from 'node:dns/promises';

/** What a look-up of a TXT name found: its records (each one's strings joined), none, or no answer. */
export type TxtAnswer = { kind: 'records'; records: string[] } | { kind: 'none' } | { kind: 'unavailable' };
export type TxtLookup = (name: string) => Promise<TxtAnswer>;

/** Codes of node's resolver that mean "the name or the record does not exist". */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/**
 * Looks TXT records up at the DNS_SERVERS given (the machine's resolvers when none), each
 * look-up on a resolver of its own so that the deadline cancels only it. A server that does not
 * answer within `timeoutMs` (each of two tries) or answers an error (SERVFAIL, REFUSED) is
 * "unavailable", which is not the same as "no record": the admin is told to try again, not to fix
 * their DNS.
 */
export function createTxtLookup(servers: readonly string[], timeoutMs = 2500): TxtLookup {
  return async (name) => {
    const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
    if (servers.length > 0) resolver.setServers(servers);
    // A last guard over the resolver's own timeout and tries.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<TxtAnswer>((resolve) => {
      timer = setTimeout(
        () => {
          resolver.cancel();
          resolve({ kind: 'unavailable' });
        },
        timeoutMs * 2 + 500,
      );
    });
    const lookup = resolver.resolveTxt(name).then(
      (records): TxtAnswer => ({ kind: 'records', records: records.map((chunks) => chunks.join('')) }),
      (err: NodeJS.ErrnoException): TxtAnswer =>
        ABSENT.has(err.code ?? '') ? { kind: 'none' } : { kind: 'unavailable' },
    );
    try {
      return await Promise.race([lookup, deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}
