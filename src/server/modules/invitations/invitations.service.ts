import type { z } from 'zod';
import {
  writeBlockOf,
  INVITATION_MESSAGES,
  INVITATION_TTL_DAYS,
  type AcceptedInvitation,
  type CreateInvitationBody,
  type Invitation,
  type InvitationPreview,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, badRequest, conflict, notFound, tooManyRequests } from '../../lib/errors';
import { violatedUniqueConstraint } from '../../lib/pg-errors';
import * as rateLimiter from '../../lib/rate-limiter';
import { DAY_MS, addMs, iso } from '../../lib/time';
import { liveChange, publishLive } from '../../lib/live-events';
import { LINK_TOKEN_PLACEHOLDER, PLATFORM_MESSAGE_EVENTS, queueMessage } from '../../lib/outbox';
import { hashToken, newToken } from '../../lib/tokens';
import { auditRepository } from '../audit/audit.repository';
import { writeBlockError } from '../organizations/plan-access';
import { membersRepository } from '../organizations/members.repository';
import { invitationEmail, invitationLink } from './invitation-email';
import { invitationsRepository, type InvitationListRow } from './invitations.repository';

const INVITATION_NOT_FOUND = 'Invitation not found';
const TTL_MS = INVITATION_TTL_DAYS * DAY_MS;

const invalidInvitation = () => badRequest(INVITATION_MESSAGES.invalid, 'invalid_invitation');

function toInvitationDto(r: InvitationListRow, now = new Date()): Invitation {
  return {
    id: r.id,
    email: r.email,
    role: r.role,
    expiresAt: iso(r.expiresAt),
    createdAt: iso(r.createdAt),
    status: r.expiresAt > now ? 'pending' : 'expired',
    invitedBy:
      r.invitedById && r.inviterEmail
        ? { id: r.invitedById, firstName: r.inviterFirstName, lastName: r.inviterLastName, email: r.inviterEmail }
        : null,
  };
}

/**
 * Joins the invitation's organization with the invited role, inside the caller's transaction:
 * accepting signed in, registering and signing in with a token all come here. The invitation row
 * is locked (a token works once even when used twice at the same moment), then the organization
 * row (two joins cannot both take the last seat). Throws, changing nothing:
 * 400 invalid_invitation (unknown, used, revoked or expired), 400 email_mismatch,
 * 409 already_member, 402 trial_expired, 402 seat_limit.
 */
export async function joinWithInvitation(
  tx: DbOrTx,
  user: { id: string; email: string },
  token: string,
  now = new Date(),
): Promise<AcceptedInvitation> {
  const found = await invitationsRepository.findUsableByToken(tx, hashToken(token), now, { lock: true });
  if (!found) throw invalidInvitation();
  const { invitation } = found;
  if (invitation.email !== user.email.toLowerCase()) {
    throw badRequest(INVITATION_MESSAGES.emailMismatch, 'email_mismatch');
  }
  const organizationId = invitation.organizationId;
  const org = await membersRepository.lockOrganization(tx, organizationId);
  if (!org) throw invalidInvitation();
  if (await membersRepository.findRole(tx, organizationId, user.id)) {
    // The organization id travels with the refusal: signing in reports it so the client can open it.
    throw Object.assign(conflict(INVITATION_MESSAGES.alreadyMember, 'already_member'), { organizationId });
  }
  const block = writeBlockOf(org, now);
  if (block) throw writeBlockError(block);
  if (org.maxUsers !== -1 && (await membersRepository.count(tx, organizationId)) >= org.maxUsers) {
    throw new AppError(402, INVITATION_MESSAGES.seatLimit, 'seat_limit');
  }
  try {
    await membersRepository.insert(tx, organizationId, user.id, invitation.role);
  } catch (err) {
    if (violatedUniqueConstraint(err) !== undefined) {
      throw conflict(INVITATION_MESSAGES.alreadyMember, 'already_member');
    }
    throw err;
  }
  await invitationsRepository.markUsed(tx, organizationId, invitation.id, now);
  await publishLive(tx, liveChange(organizationId, 'members', [], user.id));
  await auditRepository.record(tx, {
    organizationId,
    actorId: user.id,
    action: 'invitation.accepted',
    targetType: 'invitation',
    targetId: invitation.id,
    targetLabel: invitation.email,
    after: { role: invitation.role },
  });
  return { organizationId, organizationName: org.name, role: invitation.role };
}

/**
 * An organization's invitations are emails the platform sends to addresses it chose: bounded so
 * an admin account (or a script holding one) cannot turn Pigeonhole into a bulk sender.
 */
export const INVITATIONS_PER_HOUR = 100;
/** Resends of one invitation in an hour. */
export const RESENDS_PER_HOUR = 5;
export const TOO_MANY_INVITATIONS = 'Too many invitation emails. Please try again later.';

export function createInvitationsService({ db, publicUrl }: Deps) {
  async function limitEmails(key: string, perHour: number) {
    const limited = await rateLimiter.hit(db, key, perHour, 3600);
    if (!limited.allowed) throw tooManyRequests(TOO_MANY_INVITATIONS, limited.retryAfterSeconds);
  }

  /**
   * Queues the invitation's email in the caller's transaction (decision 054): it exists exactly
   * when the invitation does, and the worker sends it, retrying while the mail server is away.
   * The link's token is minted as it is sent, so the outbox never holds a working link.
   */
  async function queueEmail(tx: DbOrTx, caller: OrgCaller, invitationId: string, to: string, role: Invitation['role']) {
    const mail = await emailFor(tx, caller, to, role, LINK_TOKEN_PLACEHOLDER);
    await queueMessage(tx, {
      event: PLATFORM_MESSAGE_EVENTS.invitation,
      channel: 'email',
      kind: 'invitation',
      organizationId: caller.organizationId,
      mint: { kind: 'invitation', invitationId },
      ...mail,
    });
  }

  async function emailFor(tx: DbOrTx, caller: OrgCaller, to: string, role: Invitation['role'], token: string) {
    const [organizationName, inviter] = await Promise.all([
      invitationsRepository.organizationName(tx, caller.organizationId),
      invitationsRepository.inviterNames(tx, caller.userId),
    ]);
    const inviterName =
      [inviter?.firstName, inviter?.lastName].filter(Boolean).join(' ') || inviter?.username || 'An admin';
    return invitationEmail({
      to,
      organizationName: organizationName ?? 'an organization',
      inviterName,
      role,
      link: invitationLink(publicUrl(), token),
    });
  }

  async function reload(tx: DbOrTx, organizationId: string, id: string, now: Date) {
    const row = await invitationsRepository.findOpenWithInviter(tx, organizationId, id);
    if (!row) throw notFound(INVITATION_NOT_FOUND);
    return toInvitationDto(row, now);
  }

  return {
    /** Open invitations of the organization (pending or expired), newest first. */
    async list(caller: OrgCaller): Promise<Invitation[]> {
      const now = new Date();
      const rows = await invitationsRepository.listOpen(db, caller.organizationId);
      return rows.map((r) => toInvitationDto(r, now));
    },

    /**
     * Writes the invitation, its audit entry and its email in the outbox, in one transaction. The
     * stored token is a throwaway: the one that works is minted when the email is sent.
     */
    async create(caller: OrgCaller, input: z.output<typeof CreateInvitationBody>): Promise<Invitation> {
      await limitEmails(`invite:org:${caller.organizationId}`, INVITATIONS_PER_HOUR);
      const email = input.email.toLowerCase();
      const now = new Date();
      return db.transaction(async (tx) => {
        await invitationsRepository.lockEmail(tx, caller.organizationId, email);
        if (await membersRepository.isMemberByEmail(tx, caller.organizationId, email)) {
          throw conflict(INVITATION_MESSAGES.alreadyMember, 'already_member');
        }
        const open = await invitationsRepository.findOpenByEmail(tx, caller.organizationId, email);
        if (open.some((i) => i.expiresAt > now)) {
          throw conflict(INVITATION_MESSAGES.alreadyInvited, 'already_invited');
        }
        // An expired invitation for the same email is replaced by the new one.
        await invitationsRepository.deleteExpiredForEmail(tx, caller.organizationId, email, now);
        const row = await invitationsRepository.insert(tx, {
          organizationId: caller.organizationId,
          email,
          role: input.role,
          invitedBy: caller.userId,
          token: hashToken(newToken()),
          expiresAt: addMs(now, TTL_MS),
        });
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'invitation.sent',
          targetType: 'invitation',
          targetId: row.id,
          targetLabel: email,
          after: { role: input.role },
        });
        await queueEmail(tx, caller, row.id, email, input.role);
        return reload(tx, caller.organizationId, row.id, now);
      });
    },

    /** A new expiry and a new email; the old link stops working (a new token is minted as it is sent). */
    async resend(caller: OrgCaller, id: string): Promise<Invitation> {
      await limitEmails(`invite:resend:${id}`, RESENDS_PER_HOUR);
      const now = new Date();
      return db.transaction(async (tx) => {
        const invitation = await invitationsRepository.findOpenForUpdate(tx, caller.organizationId, id);
        if (!invitation) throw notFound(INVITATION_NOT_FOUND);
        if (await membersRepository.isMemberByEmail(tx, caller.organizationId, invitation.email)) {
          throw conflict(INVITATION_MESSAGES.alreadyMember, 'already_member');
        }
        const expiresAt = addMs(now, TTL_MS);
        await invitationsRepository.renew(tx, caller.organizationId, id, hashToken(newToken()), expiresAt);
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'invitation.resent',
          targetType: 'invitation',
          targetId: id,
          targetLabel: invitation.email,
          before: { expiresAt: iso(invitation.expiresAt) },
          after: { expiresAt: iso(expiresAt) },
        });
        await queueEmail(tx, caller, id, invitation.email, invitation.role);
        return reload(tx, caller.organizationId, id, now);
      });
    },

    /** Deletes the invitation: its token then verifies as unknown. */
    async revoke(caller: OrgCaller, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const removed = await invitationsRepository.delete(tx, caller.organizationId, id);
        if (!removed) throw notFound(INVITATION_NOT_FOUND);
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'invitation.revoked',
          targetType: 'invitation',
          targetId: id,
          targetLabel: removed.email,
          before: { role: removed.role },
        });
      });
    },

    /** Public: what the invitee sees before registering; 404 for unknown, used, revoked and expired tokens. */
    async verify(token: string): Promise<InvitationPreview> {
      const found = await invitationsRepository.findUsableByToken(db, hashToken(token), new Date());
      if (!found) throw new AppError(404, INVITATION_MESSAGES.invalid, 'invalid_invitation');
      return { email: found.invitation.email, organizationName: found.organizationName, role: found.invitation.role };
    },

    /** A signed-in user joins the invitation's organization. */
    async accept(user: { id: string; email: string }, token: string): Promise<AcceptedInvitation> {
      const joined = await db.transaction((tx) => joinWithInvitation(tx, user, token));
      return joined;
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
