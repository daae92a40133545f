import { z } from 'zod';
import { Id, Timestamp } from './common';

/**
 * An organization's email domains (issue 43, decision 058): claimed by an admin, proved by a DNS
 * TXT record or by a super admin. Only a verified domain's addresses will be signed in by the
 * organization's single sign-on provider, and a domain is verified by at most one organization.
 */

/** The TXT record proving a claim: at `_pigeonhole.<domain>`, value `pigeonhole-verification=<token>`. */
export const DOMAIN_TXT_PREFIX = 'pigeonhole-verification=';
export const DOMAIN_TXT_LABEL = '_pigeonhole';
export const domainTxtName = (domain: string) => `${DOMAIN_TXT_LABEL}.${domain}`;
export const domainTxtValue = (token: string) => `${DOMAIN_TXT_PREFIX}${token}`;

/** Claims are rows an admin can add at will: bounded (a real organization has a handful). */
export const MAX_DOMAINS_PER_ORGANIZATION = 20;

export const DOMAIN_MESSAGES = {
  required: 'Enter a domain',
  invalid: 'Enter a domain name like example.com, without http://, a path or an @',
  wildcard: 'A wildcard cannot be verified: enter the domain itself, like example.com',
  ipAddress: 'An IP address is not a domain: enter a domain name like example.com',
  tooLong: 'A domain name has at most 253 characters',
  /** `{domain}` is the suffix the entry stopped at. */
  publicSuffix: (suffix: string) =>
    `${suffix} is shared by many owners and cannot be claimed: enter your organization's own domain under it, like example.${suffix}`,
  alreadyClaimed: 'This organization has already added this domain',
  tooMany: `An organization can add at most ${MAX_DOMAINS_PER_ORGANIZATION} domains: remove one it no longer uses first`,
  verifiedElsewhere:
    'This domain is verified by another organization. If it is yours, ask Pigeonhole support to look into it.',
  notFound: 'Domain not found',
  alreadyVerified: 'This domain is already verified',
  recordNotFound: (name: string) =>
    `No TXT record with this organization's code was found at ${name}. Add it at your DNS provider; a new record can take a few minutes (sometimes longer) to be seen.`,
  wrongRecord: (name: string) =>
    `The TXT record at ${name} does not hold this organization's code. Copy the value shown here exactly.`,
  dnsUnavailable: 'The DNS servers did not answer in time. Try again in a minute.',
  rateLimited: 'Too many verification checks: try again in a minute.',
} as const;

/**
 * Public suffixes of more than one label that people are likely to type (a name of one label,
 * "com", is refused anyway). Not the whole Public Suffix List: a suffix missed here still cannot
 * be verified, since nobody can publish our TXT record under it for everyone (decision 058).
 */
const SHARED_SUFFIXES = new Set([
  ...['co', 'org', 'me', 'net', 'ltd', 'plc', 'ac', 'gov', 'nhs', 'police', 'sch'].map((s) => `${s}.uk`),
  ...['com', 'net', 'org', 'edu', 'gov', 'asn', 'id'].map((s) => `${s}.au`),
  ...['co', 'org', 'net', 'ac', 'govt', 'school', 'geek', 'gen', 'kiwi'].map((s) => `${s}.nz`),
  ...['co', 'or', 'ne', 'ac', 'go', 'ed', 'gr', 'lg'].map((s) => `${s}.jp`),
  ...['com', 'net', 'org', 'gov', 'edu', 'art', 'eng', 'ind'].map((s) => `${s}.br`),
  ...['com', 'net', 'org', 'gov', 'edu'].map((s) => `${s}.${'cn'}`),
  ...['co', 'firm', 'net', 'org', 'gen', 'ind', 'ac', 'edu', 'gov', 'res'].map((s) => `${s}.in`),
  ...['co', 'org', 'net', 'ac', 'gov', 'web', 'nom'].map((s) => `${s}.za`),
  ...['com', 'org', 'net', 'gob', 'edu'].map((s) => `${s}.mx`),
  ...['com', 'org', 'net', 'gov', 'edu'].map((s) => `${s}.sg`),
  ...['com', 'org', 'net', 'gov', 'edu', 'idv'].map((s) => `${s}.tw`),
  ...['com', 'org', 'net', 'gov', 'edu', 'idv'].map((s) => `${s}.hk`),
  ...['co', 'or', 'ac', 'go', 'ne', 're'].map((s) => `${s}.kr`),
  ...['com', 'org', 'net', 'gov', 'edu'].map((s) => `${s}.tr`),
  ...['co', 'org', 'ac', 'gov', 'muni', 'net'].map((s) => `${s}.il`),
  ...['com', 'org', 'net', 'gov', 'edu'].map((s) => `${s}.ar`),
  ...['co', 'or', 'ac', 'go'].map((s) => `${s}.id`),
  ...['com', 'org', 'net', 'gov', 'edu'].map((s) => `${s}.my`),
  ...['com', 'org', 'net', 'edu', 'gov'].map((s) => `${s}.ph`),
  'gouv.fr',
  'co.at',
  'or.at',
  'com.pl',
  'com.es',
  'com.pt',
  'com.ua',
  'com.ru',
  'co.it',
  // Hosting platforms on the Public Suffix List whose sub-domains belong to their customers.
  'github.io',
  'herokuapp.com',
  'vercel.app',
  'netlify.app',
  'pages.dev',
  'workers.dev',
  'appspot.com',
  'blogspot.com',
  'azurewebsites.net',
  'cloudfront.net',
  'amazonaws.com',
  'firebaseapp.com',
  'web.app',
  'onrender.com',
  'fly.dev',
]);

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain as it is stored and compared: lower-cased, IDNA (punycode) form, no trailing dot.
 * Answers the normalised name, or the message saying why the entry is not a domain that can be
 * claimed. The browser's and node's URL parser do the IDNA mapping (UTS #46).
 */
export function normaliseDomain(input: string): { domain: string } | { error: string } {
  let text = input.trim().toLowerCase();
  if (text === '') return { error: DOMAIN_MESSAGES.required };
  if (text.includes('*')) return { error: DOMAIN_MESSAGES.wildcard };
  if (/^\[|^\d{1,3}(\.\d{1,3}){3}\.?$/.test(text) || (/^[0-9a-f:]+$/.test(text) && text.includes(':'))) {
    return { error: DOMAIN_MESSAGES.ipAddress };
  }
  if (/[\s/:@?#\\%]/.test(text)) return { error: DOMAIN_MESSAGES.invalid };
  if (text.endsWith('.')) text = text.slice(0, -1);
  let ascii: string;
  try {
    ascii = new URL(`http://${text}/`).hostname;
  } catch {
    return { error: DOMAIN_MESSAGES.invalid };
  }
  if (ascii.length > 253) return { error: DOMAIN_MESSAGES.tooLong };
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return { error: DOMAIN_MESSAGES.invalid };
  // The URL parser turns "1.2.3.4" and "0x7f.1" into addresses; a top-level label is never numeric.
  if (/^\d+$/.test(labels.at(-1)!) || /^0x[0-9a-f]*$/.test(labels.at(-1)!)) return { error: DOMAIN_MESSAGES.ipAddress };
  if (SHARED_SUFFIXES.has(ascii)) return { error: DOMAIN_MESSAGES.publicSuffix(ascii) };
  return { domain: ascii };
}

/** A claimable domain, normalised (the body of a claim). */
export const DomainName = z
  .string({ message: DOMAIN_MESSAGES.required })
  .max(300, DOMAIN_MESSAGES.tooLong)
  .transform((value, ctx) => {
    const result = normaliseDomain(value);
    if ('error' in result) {
      ctx.addIssue({ code: 'custom', message: result.error });
      return z.NEVER;
    }
    return result.domain;
  });

export const ClaimDomainBody = z.object({ domain: DomainName });
export type ClaimDomainBody = z.input<typeof ClaimDomainBody>;

export const DomainStatus = z.enum(['pending', 'verified']);
export type DomainStatus = z.infer<typeof DomainStatus>;

/** How a verified domain was proved: by its DNS record, or by a super admin. */
export const DomainVerifiedBy = z.enum(['dns', 'super_admin']);
export type DomainVerifiedBy = z.infer<typeof DomainVerifiedBy>;

export const OrganizationDomain = z.object({
  id: z.uuid(),
  organizationId: z.uuid(),
  domain: z.string(),
  status: DomainStatus,
  /** Where the TXT record goes and what it says (shown to copy). */
  txtRecordName: z.string(),
  txtRecordValue: z.string(),
  verifiedAt: Timestamp.nullable(),
  verifiedBy: DomainVerifiedBy.nullable(),
  createdAt: Timestamp,
});
export type OrganizationDomain = z.infer<typeof OrganizationDomain>;

export const DomainParams = z.object({ id: Id });

/** The console's view: the domain with its organization's name. */
export const SuperAdminDomain = OrganizationDomain.extend({ organizationName: z.string() });
export type SuperAdminDomain = z.infer<typeof SuperAdminDomain>;

export const SuperAdminDomainParams = z.object({ orgId: Id, id: Id });
