import crypto from 'node:crypto';
import { writeBlockOf, type Role, type SsoErrorCode } from '../../../contract';
import type { Deps } from '../../context';
import type { DbOrTx } from '../../db/client';
import { asPlatform } from '../../db/tenant-scope';
import { AppError } from '../../lib/errors';
import { liveChange, publishLive } from '../../lib/live-events';
import { violatedUniqueConstraint } from '../../lib/pg-errors';
import { auditRepository } from '../audit/audit.repository';
import { openUserSession, toUserDto, type ClientInfo, type NewSession } from '../auth/auth.service';
import { usersRepository, type UserRow } from '../auth/users.repository';
import type { DomainsService } from '../domains/domains.service';
import { joinWithInvitation } from '../invitations/invitations.service';
import { membersRepository } from '../organizations/members.repository';
import { ssoRepository, type SsoConnectionRow } from './sso.repository';

/**
 * The end of every single sign-on, OIDC or SAML (decision 059): the protocol half has proved who
 * the provider says the person is (signature, issuer, audience, expiry, state or InResponseTo,
 * replay); this finds or creates the user, the membership and the identity link, and opens a
 * session as a password sign-in does, in one transaction: a refusal leaves nothing behind.
 */

/** A refusal the sign-in page shows in words: /login?sso_error=<code> (contract SSO_ERRORS). */
export class SsoRefusal extends Error {
  constructor(
    readonly code: SsoErrorCode,
    /** For the log only: never shown to the person. */
    readonly detail?: string,
  ) {
    super(`single sign-on refused: ${code}${detail ? ` (${detail})` : ''}`);
  }
}

export type SsoSignInContext = {
  deps: Pick<Deps, 'db' | 'config'>;
  domains: Pick<DomainsService, 'organizationForEmail'>;
  client: ClientInfo;
};

export type SsoProfile = {
  connection: SsoConnectionRow;
  /** OIDC `sub` or SAML NameID: stable per person at the provider. */
  subject: string;
  email: string | null | undefined;
  names?: { firstName?: string | null; lastName?: string | null };
  /** Group names or ids the provider sent (OIDC `groups` claim, SAML group attribute). */
  groups?: readonly string[];
  /** Every claim or attribute, for the admin mapping (adminClaim) when it is not the groups. */
  claims?: Record<string, unknown>;
  /** An invitation accepted through the provider: joins with the invited role. */
  invitationToken?: string | null;
};

export type SsoSignedIn = {
  user: ReturnType<typeof toUserDto>;
  session: NewSession;
  organizationId: string;
  created: { user: boolean; membership: boolean };
};

/** The user a first sign-in creates has no password: this is no argon2 hash, so none matches it. */
export const NO_PASSWORD = '!sso';

/** Whether the provider's claims make this person an admin under the connection's mapping. */
export function mapsToAdmin(
  connection: SsoConnectionRow,
  groups: readonly string[] = [],
  claims: Record<string, unknown> = {},
) {
  const { adminClaim, adminValue } = connection;
  if (!adminClaim || !adminValue) return false;
  const value = adminClaim in claims ? claims[adminClaim] : adminClaim === 'groups' ? groups : undefined;
  if (Array.isArray(value)) return value.some((v) => String(v) === adminValue);
  if (value === undefined || value === null) return false;
  return String(value) === adminValue;
}

const JOIN_REFUSALS: Record<string, SsoErrorCode> = {
  invalid_invitation: 'invitation',
  email_mismatch: 'invitation',
  seat_limit: 'seat_limit',
  trial_expired: 'trial_expired',
  subscription_inactive: 'trial_expired',
};

/** A username free at the time of asking, from the address's local part (unique index decides races). */
async function freeUsername(db: DbOrTx, email: string): Promise<string> {
  const base =
    email
      .slice(0, email.lastIndexOf('@'))
      .replace(/[^A-Za-z0-9._+-]/g, '')
      .slice(0, 40) || 'user';
  const padded = base.length < 3 ? `${base}-sso` : base;
  if (!(await usersRepository.usernameTaken(db, padded))) return padded;
  return `${padded}-${crypto.randomBytes(3).toString('hex')}`;
}

async function addMember(tx: DbOrTx, organizationId: string, user: UserRow, role: Role) {
  const org = await membersRepository.lockOrganization(tx, organizationId);
  if (!org) throw new SsoRefusal('not_available', 'organization gone');
  const block = writeBlockOf(org);
  if (block) throw new SsoRefusal('trial_expired', block);
  if (org.maxUsers !== -1 && (await membersRepository.count(tx, organizationId)) >= org.maxUsers) {
    throw new SsoRefusal('seat_limit');
  }
  await membersRepository.insert(tx, organizationId, user.id, role);
  await publishLive(tx, liveChange(organizationId, 'members', [], user.id));
  await auditRepository.record(tx, {
    organizationId,
    actorId: user.id,
    action: 'member.joined_by_sso',
    targetType: 'user',
    targetId: user.id,
    targetLabel: user.email,
    after: { role },
  });
}

/**
 * Signs the person in through the connection's organization. Refuses (SsoRefusal, nothing
 * written) an address of a domain this organization has not verified, a disabled connection, no
 * free seat, an ended trial, an unusable invitation. Two-factor is not asked: the provider's own
 * applies (issue 43).
 */
export async function completeSsoSignIn(ctx: SsoSignInContext, profile: SsoProfile): Promise<SsoSignedIn> {
  const { connection } = profile;
  const organizationId = connection.organizationId;
  if (!connection.enabled) throw new SsoRefusal('not_available', 'connection disabled');
  const email = profile.email?.trim().toLowerCase();
  if (!email || !email.includes('@')) throw new SsoRefusal('email_missing');
  if (!profile.subject) throw new SsoRefusal('refused', 'no subject');
  // The provider vouches for addresses of the domains its organization proved, and for no other.
  const holder = await ctx.domains.organizationForEmail(email);
  if (holder?.organizationId !== organizationId) throw new SsoRefusal('unverified_domain', email);

  const isAdmin = mapsToAdmin(connection, profile.groups, profile.claims);
  // Across organizations: the user and identity rows are looked up by address and subject.
  return asPlatform(async () => {
    try {
      return await ctx.deps.db.transaction(async (tx) => {
        const created = { user: false, membership: false };
        const identity = await ssoRepository.findIdentity(tx, connection.id, profile.subject);
        let user = identity ? await usersRepository.findById(tx, identity.userId) : undefined;
        if (!user) {
          // No link yet: the address's account (the provider vouches for a verified domain's
          // address), or a new one without a password.
          user = await usersRepository.findByEmail(tx, email);
          if (!user) {
            user = await usersRepository.insert(tx, {
              email,
              username: await freeUsername(tx, email),
              firstName: profile.names?.firstName?.slice(0, 100) || null,
              lastName: profile.names?.lastName?.slice(0, 100) || null,
              password: NO_PASSWORD,
              emailVerifiedAt: new Date(),
            });
            created.user = true;
          } else if (!user.emailVerifiedAt) {
            await usersRepository.markEmailVerified(tx, user.id);
          }
        }
        if (identity) await ssoRepository.touchIdentity(tx, organizationId, identity.id, email);
        else {
          await ssoRepository.insertIdentity(tx, {
            organizationId,
            connectionId: connection.id,
            userId: user.id,
            subject: profile.subject,
            email,
          });
        }

        const role = await membersRepository.findRole(tx, organizationId, user.id);
        if (!role) {
          if (profile.invitationToken) {
            try {
              await joinWithInvitation(tx, user, profile.invitationToken);
            } catch (err) {
              const code = err instanceof AppError && err.code ? JOIN_REFUSALS[err.code] : undefined;
              if (code) throw new SsoRefusal(code, err instanceof Error ? err.message : undefined);
              throw err;
            }
            if (isAdmin) await membersRepository.updateRole(tx, organizationId, user.id, 'admin');
          } else {
            await addMember(tx, organizationId, user, isAdmin ? 'admin' : connection.defaultRole);
          }
          created.membership = true;
        } else if (role === 'member' && isAdmin) {
          // The provider's mapping grants admin; it never takes it away (an organization must
          // keep an admin, and the admins may have granted it by hand).
          await membersRepository.updateRole(tx, organizationId, user.id, 'admin');
          await auditRepository.record(tx, {
            organizationId,
            actorId: user.id,
            action: 'member.role_changed_by_sso',
            targetType: 'user',
            targetId: user.id,
            targetLabel: user.email,
            before: { role },
            after: { role: 'admin' },
          });
        }
        await auditRepository.record(tx, {
          organizationId,
          actorId: user.id,
          action: 'sso.signed_in',
          targetType: 'user',
          targetId: user.id,
          targetLabel: user.email,
          after: { protocol: connection.protocol, subject: profile.subject.slice(0, 200) },
        });
        const session = await openUserSession({ db: tx, config: ctx.deps.config }, user.id, ctx.client);
        return { user: toUserDto(user), session, organizationId, created };
      });
    } catch (err) {
      // Two first sign-ins of one person at once: the unique indexes let one through.
      if (!(err instanceof SsoRefusal) && violatedUniqueConstraint(err) !== undefined) {
        throw new SsoRefusal('expired', 'a concurrent sign-in of the same person');
      }
      throw err;
    }
  });
}
