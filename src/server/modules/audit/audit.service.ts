import type { z } from 'zod';
import type { AuditAction, AuditEntry, AuditLogQuery } from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { iso } from '../../lib/time';
import { auditRepository } from './audit.repository';

type Row = Awaited<ReturnType<typeof auditRepository.list>>[number];

function toAuditEntryDto(r: Row): AuditEntry {
  return {
    id: r.id,
    action: r.action as AuditAction,
    actor:
      r.actorId && r.actorEmail
        ? { id: r.actorId, firstName: r.actorFirstName, lastName: r.actorLastName, email: r.actorEmail }
        : null,
    targetType: r.targetType,
    targetId: r.targetId,
    targetLabel: r.targetLabel,
    before: r.before,
    after: r.after,
    createdAt: iso(r.createdAt),
  };
}

export function createAuditService({ db }: Deps) {
  return {
    /** Admins (the route checks the role): the organization's entries, newest first, and their total. */
    async list(caller: OrgCaller, query: z.output<typeof AuditLogQuery>) {
      const [rows, total] = await Promise.all([
        auditRepository.list(db, caller.organizationId, query.limit, query.offset),
        auditRepository.count(db, caller.organizationId),
      ]);
      return { items: rows.map(toAuditEntryDto), total };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
