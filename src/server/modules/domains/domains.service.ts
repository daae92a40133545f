import crypto from 'node:crypto';
import {
  DOMAIN_MESSAGES,
  MAX_DOMAINS_PER_ORGANIZATION,
  SUPER_ADMIN_MESSAGES,
  domainTxtName,
  domainTxtValue,
  normaliseDomain,
  type OrganizationDomain,
  type SuperAdminDomain,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import type { DbOrTx } from '../../db/client';
import { asPlatform } from '../../db/tenant-scope';
import { AppError, conflict, notFound, tooManyRequests } from '../../lib/errors';
import { violatedUniqueConstraint } from '../../lib/pg-errors';
import * as rateLimiter from '../../lib/rate-limiter';
import { iso } from '../../lib/time';
import { auditRepository } from '../audit/audit.repository';
import { platformLogRepository } from '../audit/platform-log.repository';
import { organizationsRepository } from '../organizations/organizations.repository';
import { createTxtLookup, type TxtLookup } from './dns-check';
import { CLAIMED_DOMAIN_INDEX, VERIFIED_DOMAIN_INDEX, domainsRepository, type DomainRow } from './domains.repository';

/** DNS checks one organization may start per minute: each is a query to someone's DNS servers. */
export const DNS_CHECKS_PER_MINUTE = 10;
const DNS_CHECK_WINDOW_SECONDS = 60;

/** The super admin acting from the console (the route has checked the flag). */
export type DomainOperator = { userId: string; email: string };

const unprocessable = (message: string, code: string) => new AppError(422, message, code);

export function toDomainDto(row: DomainRow): OrganizationDomain {
  return {
    id: row.id,
    organizationId: row.organizationId,
    domain: row.domain,
    status: row.status === 'verified' ? 'verified' : 'pending',
    txtRecordName: domainTxtName(row.domain),
    txtRecordValue: domainTxtValue(row.verificationToken),
    verifiedAt: row.verifiedAt ? iso(row.verifiedAt) : null,
    verifiedBy: row.verifiedBy === null ? null : row.verifiedBy === 'dns' ? 'dns' : 'super_admin',
    createdAt: iso(row.createdAt),
  };
}

/** 128 random bits, hex: what the TXT record must hold after `pigeonhole-verification=`. */
const newVerificationToken = () => crypto.randomBytes(16).toString('hex');

/**
 * Marks the domain verified and records it, in one transaction. The partial unique index decides
 * a race between two organizations: the loser's statement fails, its transaction rolls back, and
 * it hears 409 without learning who holds the domain.
 */
async function markVerified(
  db: DbOrTx,
  organizationId: string,
  id: string,
  by: { verifiedBy: string; actorId: string },
  recordOperator?: (tx: DbOrTx, row: DomainRow) => Promise<void>,
): Promise<DomainRow | undefined> {
  try {
    return await db.transaction(async (tx) => {
      const row = await domainsRepository.markVerified(tx, organizationId, id, by.verifiedBy);
      if (!row) return undefined;
      await auditRepository.record(tx, {
        organizationId,
        actorId: by.actorId,
        action: 'domain.verified',
        targetType: 'domain',
        targetId: row.id,
        targetLabel: row.domain,
        before: { status: 'pending' },
        after: { status: 'verified', verifiedBy: toDomainDto(row).verifiedBy },
      });
      await recordOperator?.(tx, row);
      return row;
    });
  } catch (err) {
    if (violatedUniqueConstraint(err) === VERIFIED_DOMAIN_INDEX) {
      throw conflict(DOMAIN_MESSAGES.verifiedElsewhere, 'domain_verified_elsewhere');
    }
    throw err;
  }
}

export function createDomainsService({ db, config }: Deps, lookupTxt: TxtLookup = createTxtLookup(config.dnsServers)) {
  /** The organization's name for the console's answers and entries; 404 for an unknown organization. */
  async function organizationName(organizationId: string): Promise<string> {
    const organization = await organizationsRepository.findById(db, organizationId);
    if (!organization) throw notFound(SUPER_ADMIN_MESSAGES.organizationNotFound);
    return organization.name;
  }

  async function requireDomain(organizationId: string, id: string): Promise<DomainRow> {
    const row = await domainsRepository.find(db, organizationId, id);
    if (!row) throw notFound(DOMAIN_MESSAGES.notFound);
    return row;
  }

  return {
    async list(caller: OrgCaller): Promise<OrganizationDomain[]> {
      return (await domainsRepository.list(db, caller.organizationId)).map(toDomainDto);
    },

    /**
     * Claims a domain for the caller's organization, pending until proved. Several organizations
     * may claim one domain while pending (whoever proves it first holds it); one another
     * organization has verified is refused now, without naming that organization.
     */
    async claim(caller: OrgCaller, domain: string): Promise<OrganizationDomain> {
      const { organizationId } = caller;
      if (await domainsRepository.findByDomain(db, organizationId, domain)) {
        throw conflict(DOMAIN_MESSAGES.alreadyClaimed, 'domain_already_claimed');
      }
      // Across organizations: the request's own scope would hide the other holder's row.
      const holder = await asPlatform(() => domainsRepository.findVerified(db, domain));
      if (holder && holder.organizationId !== organizationId) {
        throw conflict(DOMAIN_MESSAGES.verifiedElsewhere, 'domain_verified_elsewhere');
      }
      try {
        const row = await db.transaction(async (tx) => {
          if ((await domainsRepository.countLocked(tx, organizationId)) >= MAX_DOMAINS_PER_ORGANIZATION) {
            throw unprocessable(DOMAIN_MESSAGES.tooMany, 'too_many_domains');
          }
          const created = await domainsRepository.insert(tx, organizationId, {
            domain,
            verificationToken: newVerificationToken(),
            createdBy: caller.userId,
          });
          await auditRepository.record(tx, {
            organizationId,
            actorId: caller.userId,
            action: 'domain.claimed',
            targetType: 'domain',
            targetId: created.id,
            targetLabel: domain,
            after: { domain, status: 'pending' },
          });
          return created;
        });
        return toDomainDto(row);
      } catch (err) {
        // Two admins adding the same domain at once: the second hears what a later one would.
        if (violatedUniqueConstraint(err) === CLAIMED_DOMAIN_INDEX) {
          throw conflict(DOMAIN_MESSAGES.alreadyClaimed, 'domain_already_claimed');
        }
        throw err;
      }
    },

    /**
     * Looks the TXT record up at `_pigeonhole.<domain>` and verifies the domain when one of its
     * records is this claim's `pigeonhole-verification=<token>`. Every check counts against the
     * organization's DNS_CHECKS_PER_MINUTE, answered or not. A verified domain answers as it is.
     */
    async verifyByDns(caller: OrgCaller, id: string): Promise<OrganizationDomain> {
      const { organizationId } = caller;
      const row = await requireDomain(organizationId, id);
      if (row.status === 'verified') return toDomainDto(row);
      const limited = await rateLimiter.hit(
        db,
        `domain-check:${organizationId}`,
        DNS_CHECKS_PER_MINUTE,
        DNS_CHECK_WINDOW_SECONDS,
      );
      if (!limited.allowed) throw tooManyRequests(DOMAIN_MESSAGES.rateLimited, limited.retryAfterSeconds);

      const name = domainTxtName(row.domain);
      const answer = await lookupTxt(name);
      if (answer.kind === 'unavailable') throw unprocessable(DOMAIN_MESSAGES.dnsUnavailable, 'dns_unavailable');
      if (answer.kind === 'none' || answer.records.length === 0) {
        throw unprocessable(DOMAIN_MESSAGES.recordNotFound(name), 'txt_record_not_found');
      }
      const expected = domainTxtValue(row.verificationToken);
      if (!answer.records.some((record) => record.trim() === expected)) {
        throw unprocessable(DOMAIN_MESSAGES.wrongRecord(name), 'txt_record_mismatch');
      }
      const verified = await markVerified(db, organizationId, id, { verifiedBy: 'dns', actorId: caller.userId });
      // Removed, or verified by a concurrent check, while the DNS answered: the row says which.
      return toDomainDto(verified ?? (await requireDomain(organizationId, id)));
    },

    /** Removes a claim, verified or not; its organization's single sign-on stops covering it. */
    async remove(caller: OrgCaller, id: string): Promise<void> {
      const { organizationId } = caller;
      await db.transaction(async (tx) => {
        const row = await domainsRepository.delete(tx, organizationId, id);
        if (!row) throw notFound(DOMAIN_MESSAGES.notFound);
        await auditRepository.record(tx, {
          organizationId,
          actorId: caller.userId,
          action: 'domain.removed',
          targetType: 'domain',
          targetId: row.id,
          targetLabel: row.domain,
          before: { domain: row.domain, status: row.status },
        });
      });
    },

    /** The console's list of one organization's domains; 404 for an unknown organization. */
    async listForOperator(organizationId: string): Promise<SuperAdminDomain[]> {
      const name = await organizationName(organizationId);
      const rows = await domainsRepository.list(db, organizationId);
      return rows.map((row) => ({ ...toDomainDto(row), organizationName: name }));
    },

    /**
     * A super admin vouches for a pending domain (the organization could not publish the record,
     * or proved ownership another way). Recorded in the organization's audit log and the platform
     * log; refused like a DNS proof when another organization holds the domain verified.
     */
    async verifyByOperator(operator: DomainOperator, organizationId: string, id: string): Promise<SuperAdminDomain> {
      const name = await organizationName(organizationId);
      const row = await requireDomain(organizationId, id);
      if (row.status !== 'verified') {
        await markVerified(db, organizationId, id, { verifiedBy: operator.userId, actorId: operator.userId }, (tx, r) =>
          platformLogRepository.record(tx, {
            kind: 'super_admin',
            action: 'organization.domain_verified',
            actor: { id: operator.userId, email: operator.email },
            targetType: 'organization',
            targetId: organizationId,
            targetLabel: name,
            after: { domain: r.domain, status: 'verified' },
          }),
        );
      }
      return { ...toDomainDto(await requireDomain(organizationId, id)), organizationName: name };
    },

    /**
     * Which organization has verified the domain of this address, if any: what single sign-on
     * asks before signing an address in (issue 43). Platform code: it reads across organizations.
     */
    async organizationForEmail(email: string): Promise<{ organizationId: string; domainId: string } | undefined> {
      const at = email.lastIndexOf('@');
      if (at < 0) return undefined;
      // The same normal form as a claim's, so "Ana@Bücher.Example" finds xn--bcher-kva.example.
      const normal = normaliseDomain(email.slice(at + 1));
      if ('error' in normal) return undefined;
      const row = await asPlatform(() => domainsRepository.findVerified(db, normal.domain));
      return row ? { organizationId: row.organizationId, domainId: row.id } : undefined;
    },
  };
}

export type DomainsService = ReturnType<typeof createDomainsService>;
