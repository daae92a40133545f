import { Cron } from 'croner';
import {
  ROSTER_MAX_ROWS,
  ROSTER_MESSAGES,
  type RosterMapping,
  type RosterPreview,
  type RosterRun,
  type RosterSource,
  type RosterSourceBody,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { PLATFORM_MESSAGE_EVENTS, queueMessage } from '../../lib/outbox';
import { queueStaffMessage, STAFF_EVENTS } from '../../lib/staff-channel';
import { isPublicUrl } from '../../lib/public-address';
import { iso, isoOrNull } from '../../lib/time';
import { SECRET_CHANGED, auditRepository } from '../audit/audit.repository';
import { membersRepository } from '../organizations/members.repository';
import { organizationsRepository } from '../organizations/organizations.repository';
import { checkRow, readRecipientsCsv } from '../recipients/recipients.import';
import { recipientsRepository } from '../recipients/recipients.repository';
import { directoryRecipients, type FeedCaller, type FeedChanges } from '../recipients/recipients.service';
import { approvalReason, diffRoster, type RosterRow } from './roster.diff';
import { RosterFetchError, fetchRoster, type FetchOptions, type RosterLocation } from './roster.fetch';
import {
  rosterRepository,
  type RosterRunRow,
  type RosterSourceRow,
  type RosterSourceValues,
} from './roster.repository';

/** Fetch attempts of one scheduled run before the admins are told; the waits between them. */
const ROSTER_FETCH_ATTEMPTS = 3;
const RETRY_DELAYS_MS = [60_000, 5 * 60_000];
/** Row errors kept on a run (the counts keep the total). */
const KEPT_ROW_ERRORS = 500;

const SCHEDULES: Record<string, string> = { hourly: '0 * * * *', daily: '0 3 * * *' };

/** When a schedule is next due after `from` (UTC); null for an expression that never fires. */
function nextScheduled(schedule: string, from = new Date()): Date | null {
  return new Cron(SCHEDULES[schedule] ?? schedule, { timezone: 'UTC', paused: true }).nextRun(from);
}

function checkSchedule(schedule: string) {
  try {
    if (!nextScheduled(schedule)) throw new Error('never');
  } catch {
    throw badRequest(ROSTER_MESSAGES.badCron, 'invalid_schedule');
  }
}

/** Who the source is for the audit log and the admins' email: its URL or its SFTP place. */
const sourceLabel = (s: Pick<RosterSourceRow, 'kind' | 'url' | 'host' | 'path' | 'username'>) =>
  s.kind === 'https' ? (s.url ?? '') : `sftp://${s.username}@${s.host}${s.path?.startsWith('/') ? '' : '/'}${s.path}`;

function toSourceDto(s: RosterSourceRow): RosterSource {
  return {
    id: s.id,
    kind: s.kind,
    url: s.url,
    headerName: s.headerName,
    host: s.host,
    port: s.port,
    path: s.path,
    username: s.username,
    sftpAuth: s.sftpAuth,
    sftpHostKey: s.sftpHostKey,
    hasSecret: s.secret !== null,
    mapping: s.mapping as RosterMapping,
    schedule: s.schedule,
    graceDays: s.graceDays,
    approvalShare: s.approvalShare,
    enabled: s.enabled,
    nextRunAt: isoOrNull(s.nextRunAt),
    createdAt: iso(s.createdAt),
  };
}

function toRunDto(r: RosterRunRow): RosterRun {
  return {
    id: r.id,
    sourceId: r.sourceId,
    status: r.status,
    trigger: r.trigger,
    attempt: r.attempt,
    counts: {
      added: r.added,
      changed: r.changed,
      moved: r.moved,
      left: r.left,
      unchanged: r.unchanged,
      errors: r.errors,
    },
    errorText: r.errorText,
    rowErrors: r.rowErrors ?? [],
    startedAt: iso(r.startedAt),
    finishedAt: isoOrNull(r.finishedAt),
  };
}

/** What a waiting run keeps: the preview shown and the changes approving applies. */
type StoredPreview = Omit<RosterPreview, 'run'> & { changes: FeedChanges };

/** The audited fields of a source (its secret only as "changed"). */
const auditView = (s: RosterSourceRow) => ({
  kind: s.kind,
  location: sourceLabel(s),
  headerName: s.headerName,
  sftpHostKey: s.sftpHostKey,
  mapping: s.mapping,
  schedule: s.schedule,
  graceDays: s.graceDays,
  approvalShare: s.approvalShare,
  enabled: s.enabled,
});
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>) {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return { before: b, after: a };
}

export function createRosterService(deps: Deps) {
  const { db, config, secrets, log } = deps;
  const fetchOptions: FetchOptions = { allowPrivateTargets: config.allowPrivateTargets };

  /** The body as columns: checks what zod cannot (HTTPS only, public targets, the cron expression). */
  async function valuesOf(body: RosterSourceBody, existing?: RosterSourceRow): Promise<RosterSourceValues> {
    checkSchedule(body.schedule);
    const common = {
      mapping: body.mapping,
      schedule: body.schedule,
      graceDays: body.graceDays,
      approvalShare: body.approvalShare,
      enabled: body.enabled,
      nextRunAt: body.enabled ? nextScheduled(body.schedule) : null,
    };
    const keep = existing && existing.kind === body.kind ? existing.secret : null;
    if (body.kind === 'https') {
      const url = new URL(body.url);
      if (url.protocol !== 'https:' && !(config.allowPrivateTargets && url.protocol === 'http:')) {
        throw badRequest(ROSTER_MESSAGES.httpsOnly, 'roster_https_only');
      }
      if (!config.allowPrivateTargets && !(await isPublicUrl(body.url))) {
        throw badRequest(ROSTER_MESSAGES.privateTarget, 'private_target');
      }
      const headerName = body.headerName || null;
      if (!headerName && body.headerValue) {
        throw badRequest('A header value needs a header name', 'roster_header_name');
      }
      return {
        kind: 'https',
        url: body.url,
        headerName,
        host: null,
        port: null,
        path: null,
        username: null,
        sftpAuth: null,
        sftpHostKey: null,
        secret: !headerName ? null : body.headerValue ? secrets.encrypt(body.headerValue) : keep,
        ...common,
      };
    }
    if (
      !config.allowPrivateTargets &&
      !(await isPublicUrl(`https://${body.host.includes(':') ? `[${body.host}]` : body.host}/`))
    ) {
      throw badRequest(ROSTER_MESSAGES.privateTarget, 'private_target');
    }
    const secret = body.secret ? secrets.encrypt(body.secret) : keep;
    if (!secret) throw badRequest(ROSTER_MESSAGES.secretNeeded, 'roster_secret_required');
    // The kept host key stays while the server does; another host or port learns its own.
    const sameServer = existing?.kind === 'sftp' && existing.host === body.host && existing.port === body.port;
    const sftpHostKey = body.hostKey === undefined ? (sameServer ? existing.sftpHostKey : null) : body.hostKey || null;
    return {
      kind: 'sftp',
      url: null,
      headerName: null,
      host: body.host,
      port: body.port,
      path: body.path,
      username: body.username,
      sftpAuth: body.sftpAuth,
      sftpHostKey,
      secret,
      ...common,
    };
  }

  function locationOf(s: RosterSourceRow): RosterLocation {
    const secret = s.secret ? secrets.decrypt(s.secret) : null;
    if (s.kind === 'https') return { kind: 'https', url: s.url!, headerName: s.headerName, headerValue: secret };
    return {
      kind: 'sftp',
      host: s.host!,
      port: s.port ?? 22,
      path: s.path!,
      username: s.username!,
      sftpAuth: s.sftpAuth ?? 'password',
      secret,
      hostKey: s.sftpHostKey,
    };
  }

  /** The admins hear of a run that failed for good: one email each, through the outbox (decision 054). */
  async function tellAdmins(tx: DbOrTx, source: RosterSourceRow, reason: string) {
    const organization = await organizationsRepository.findById(tx, source.organizationId);
    const admins = (await membersRepository.list(tx, source.organizationId)).filter((m) => m.role === 'admin');
    const base = deps.publicUrl().replace(/\/+$/, '');
    // And the staff channel of the organization's Slack, when it has one (decision 064).
    await queueStaffMessage(tx, {
      organizationId: source.organizationId,
      event: STAFF_EVENTS.rosterFailed,
      text:
        `The resident roster could not be updated from ${sourceLabel(source)} after ${ROSTER_FETCH_ATTEMPTS} tries: ` +
        `${reason}\nThe recipients stay as the last run left them. Check the source: ${base}/settings-roster`,
    });
    for (const admin of admins) {
      await queueMessage(tx, {
        channel: 'email',
        event: PLATFORM_MESSAGE_EVENTS.accountNotice,
        organizationId: source.organizationId,
        kind: 'roster_failed',
        to: admin.user.email,
        subject: `The resident roster of ${organization?.name ?? 'your organization'} could not be updated`,
        text: [
          admin.user.firstName ? `Hello ${admin.user.firstName},` : 'Hello,',
          '',
          `Pigeonhole could not read the roster from ${sourceLabel(source)} after ${ROSTER_FETCH_ATTEMPTS} tries:`,
          reason,
          '',
          'The recipients stay as the last run left them. Check the source in Settings -> Roster:',
          `${base}/settings-roster`,
          '',
          '--',
          `You receive this email because you are an admin of ${organization?.name ?? 'this organization'} on Pigeonhole.`,
        ].join('\n'),
      });
    }
  }

  /**
   * One run of a source this instance holds the lease of: fetch, read with the saved mapping,
   * diff, then apply at once or keep the preview for an admin. The lease is released, and the
   * next time set, whatever happens.
   */
  async function runClaimed(source: RosterSourceRow, trigger: 'schedule' | 'manual', actorId: string | null) {
    const org = source.organizationId;
    const attempt = trigger === 'schedule' ? source.failedAttempts + 1 : 1;
    const startedAt = new Date();
    const next = { nextRunAt: source.enabled ? nextScheduled(source.schedule) : null, failedAttempts: 0 };
    const keepNext =
      trigger === 'manual' ? { nextRunAt: source.nextRunAt, failedAttempts: source.failedAttempts } : next;
    let failure: string | undefined;
    let run: RosterRunRow | undefined;
    try {
      let text: string;
      try {
        const file = await fetchRoster(locationOf(source), fetchOptions);
        text = file.text;
        // Trust on first use: the first connection's host key is the one every later run must meet.
        if (source.kind === 'sftp' && !source.sftpHostKey && file.hostKey) {
          await rosterRepository.keepHostKey(db, org, source.id, file.hostKey);
        }
      } catch (err) {
        if (!(err instanceof RosterFetchError)) throw err;
        failure = err.message;
        // A fetch may fail for a moment: a scheduled run tries again later, the third failure is told.
        const retry = trigger === 'schedule' && attempt < ROSTER_FETCH_ATTEMPTS;
        run = await db.transaction(async (tx) => {
          const row = await rosterRepository.insertRun(tx, org, {
            sourceId: source.id,
            status: 'failed',
            trigger,
            attempt,
            errorText: retry
              ? `${err.message} (tried ${attempt} of ${ROSTER_FETCH_ATTEMPTS}; trying again)`
              : err.message,
            startedAt,
            finishedAt: new Date(),
          });
          if (trigger === 'schedule' && !retry) await tellAdmins(tx, source, err.message);
          await rosterRepository.release(
            tx,
            org,
            source.id,
            retry
              ? { nextRunAt: new Date(Date.now() + RETRY_DELAYS_MS[attempt - 1]!), failedAttempts: attempt }
              : keepNext,
          );
          return row;
        });
        return run;
      }

      let rows: RosterRow[];
      try {
        rows = readRecipientsCsv(text, { mapping: source.mapping as RosterMapping, maxRows: ROSTER_MAX_ROWS }).map(
          (row) => ({ ...checkRow(row), externalId: row.externalId ?? '' }),
        );
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // The file came but cannot be read: trying again fetches the same file, so the admins hear now.
        run = await db.transaction(async (tx) => {
          const row = await rosterRepository.insertRun(tx, org, {
            sourceId: source.id,
            status: 'failed',
            trigger,
            attempt,
            errorText: err.message,
            startedAt,
            finishedAt: new Date(),
          });
          if (trigger === 'schedule') await tellAdmins(tx, source, err.message);
          await rosterRepository.release(tx, org, source.id, keepNext);
          return row;
        });
        return run;
      }

      const managed = await recipientsRepository.listManaged(db, org, 'roster');
      const emails = [...new Set(rows.flatMap((r) => (r.data?.email ? [r.data.email.toLowerCase()] : [])))];
      const byEmail = new Map<string, { id: string; managedBy: string | null }>();
      for (const r of await recipientsRepository.findByEmails(db, org, emails)) {
        const key = r.email!.toLowerCase();
        if (!byEmail.has(key)) byEmail.set(key, r);
      }
      const diff = diffRoster(rows, managed, byEmail);
      const firstRun = !(await rosterRepository.hasAppliedRun(db, org, source.id));
      const reason = approvalReason(diff, { firstRun, approvalShare: source.approvalShare });
      const counts = {
        added: diff.preview.added.length,
        changed: diff.preview.changed.length,
        moved: diff.preview.moved.length,
        left: diff.preview.left.length,
        unchanged: diff.unchanged,
        errors: diff.rowErrors.length,
      };
      const base = {
        sourceId: source.id,
        trigger,
        attempt,
        ...counts,
        rowErrors: diff.rowErrors.slice(0, KEPT_ROW_ERRORS),
        startedAt,
        finishedAt: new Date(),
      };
      if (reason) {
        const preview: StoredPreview = { reason, ...diff.preview, changes: diff.changes };
        run = await db.transaction(async (tx) => {
          const row = await rosterRepository.insertRun(tx, org, { ...base, status: 'awaiting_approval', preview });
          await rosterRepository.release(tx, org, source.id, keepNext);
          return row;
        });
        return run;
      }
      const feed: FeedCaller = { organizationId: org, feed: 'roster', userId: actorId };
      await db.transaction(async (tx) => {
        await directoryRecipients.applyBatch(tx, feed, diff.changes);
        run = await rosterRepository.insertRun(tx, org, { ...base, status: 'applied' });
        await rosterRepository.release(tx, org, source.id, keepNext);
      });
      return run!;
    } finally {
      if (!run) {
        // An unexpected error: the lease ends so the next tick may try again.
        await rosterRepository
          .release(db, org, source.id, keepNext)
          .catch((err: unknown) => log.error({ err }, 'roster: releasing a source failed'));
      }
      if (failure) log.warn({ sourceId: source.id, attempt, failure }, 'roster fetch failed');
    }
  }

  async function sourceOr404(caller: OrgCaller, id: string) {
    const row = await rosterRepository.findSource(db, caller.organizationId, id);
    if (!row) throw notFound(ROSTER_MESSAGES.sourceNotFound);
    return row;
  }

  async function runOr404(caller: OrgCaller, id: string) {
    const row = await rosterRepository.findRun(db, caller.organizationId, id);
    if (!row) throw notFound(ROSTER_MESSAGES.runNotFound);
    return row;
  }

  return {
    async listSources(caller: OrgCaller): Promise<RosterSource[]> {
      return (await rosterRepository.listSources(db, caller.organizationId)).map(toSourceDto);
    },

    async createSource(caller: OrgCaller, body: RosterSourceBody): Promise<RosterSource> {
      const values = await valuesOf(body);
      // One roster per organization: its recipients are the roster's, and a second source would
      // mark the first one's people as left.
      if ((await rosterRepository.listSources(db, caller.organizationId)).length > 0) {
        throw conflict('The organization has a roster source already: edit that one', 'roster_source_exists');
      }
      return db.transaction(async (tx) => {
        const row = await rosterRepository.insertSource(tx, caller.organizationId, values);
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'roster.source_created',
          targetType: 'roster_source',
          targetId: row.id,
          targetLabel: sourceLabel(row),
          after: { ...auditView(row), ...(row.secret ? { secret: SECRET_CHANGED } : {}) },
        });
        return toSourceDto(row);
      });
    },

    async updateSource(caller: OrgCaller, id: string, body: RosterSourceBody): Promise<RosterSource> {
      return db.transaction(async (tx) => {
        const existing = await rosterRepository.findSource(tx, caller.organizationId, id);
        if (!existing) throw notFound(ROSTER_MESSAGES.sourceNotFound);
        const values = await valuesOf(body, existing);
        const row = (await rosterRepository.updateSource(tx, caller.organizationId, id, values))!;
        const { before, after } = changedFields(auditView(existing), auditView(row));
        if (row.secret !== existing.secret) {
          before.secret = SECRET_CHANGED;
          after.secret = SECRET_CHANGED;
        }
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'roster.source_updated',
          targetType: 'roster_source',
          targetId: row.id,
          targetLabel: sourceLabel(row),
          before,
          after,
        });
        return toSourceDto(row);
      });
    },

    /** The runs go with it; the recipients stay as the roster left them (still marked as the roster's). */
    async removeSource(caller: OrgCaller, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const existing = await rosterRepository.findSource(tx, caller.organizationId, id);
        if (!existing || !(await rosterRepository.deleteSource(tx, caller.organizationId, id))) {
          throw notFound(ROSTER_MESSAGES.sourceNotFound);
        }
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'roster.source_deleted',
          targetType: 'roster_source',
          targetId: id,
          targetLabel: sourceLabel(existing),
          before: auditView(existing),
        });
      });
    },

    /** "Run now": the same run as the schedule's, at once, while no other run holds the source. */
    async runNow(caller: OrgCaller, id: string): Promise<RosterRun> {
      const existing = await sourceOr404(caller, id);
      const source = await rosterRepository.claimOne(db, caller.organizationId, id);
      if (!source) throw conflict(ROSTER_MESSAGES.running, 'roster_run_under_way');
      await auditRepository.record(db, {
        organizationId: caller.organizationId,
        actorId: caller.userId,
        action: 'roster.run_started',
        targetType: 'roster_source',
        targetId: id,
        targetLabel: sourceLabel(existing),
      });
      return toRunDto(await runClaimed(source, 'manual', caller.userId));
    },

    async listRuns(caller: OrgCaller, query: { sourceId?: string; limit: number; offset: number }) {
      const { rows, total } = await rosterRepository.listRuns(db, caller.organizationId, query);
      return { runs: rows.map(toRunDto), total };
    },

    async preview(caller: OrgCaller, runId: string): Promise<RosterPreview> {
      const run = await runOr404(caller, runId);
      const stored = run.preview as StoredPreview | null;
      return {
        run: toRunDto(run),
        reason: stored?.reason ?? null,
        added: stored?.added ?? [],
        changed: stored?.changed ?? [],
        moved: stored?.moved ?? [],
        left: stored?.left ?? [],
      };
    },

    /**
     * Applies a waiting run's changes through the recipients' writer, in one transaction with
     * the run's new status and the audit entry. A run that a later applied run has overtaken is
     * refused (its diff is stale); two admins approving at once apply it once.
     */
    async approve(caller: OrgCaller, runId: string): Promise<RosterRun> {
      const run = await runOr404(caller, runId);
      if (run.status !== 'awaiting_approval' || !run.preview)
        throw conflict(ROSTER_MESSAGES.notAwaiting, 'roster_run_not_waiting');
      if (await rosterRepository.hasAppliedRun(db, caller.organizationId, run.sourceId, run.startedAt)) {
        throw conflict(ROSTER_MESSAGES.superseded, 'roster_run_superseded');
      }
      const source = await rosterRepository.findSource(db, caller.organizationId, run.sourceId);
      const stored = run.preview as StoredPreview;
      let applied: RosterRunRow | undefined;
      await db.transaction(async (tx) => {
        // Locked first: two admins approving at once apply it once.
        const locked = await rosterRepository.findRun(tx, caller.organizationId, runId, true);
        if (locked?.status !== 'awaiting_approval')
          throw conflict(ROSTER_MESSAGES.notAwaiting, 'roster_run_not_waiting');
        await directoryRecipients.applyBatch(
          tx,
          { organizationId: caller.organizationId, feed: 'roster', userId: caller.userId },
          stored.changes,
        );
        applied = await rosterRepository.updateRun(tx, caller.organizationId, runId, {
          status: 'applied',
          preview: null,
          decidedBy: caller.userId,
        });
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'roster.run_approved',
          targetType: 'roster_run',
          targetId: runId,
          targetLabel: source ? sourceLabel(source) : null,
          after: { added: run.added, changed: run.changed, moved: run.moved, left: run.left },
        });
      });
      return toRunDto(applied!);
    },

    async reject(caller: OrgCaller, runId: string): Promise<RosterRun> {
      return db.transaction(async (tx) => {
        const run = await rosterRepository.findRun(tx, caller.organizationId, runId, true);
        if (!run) throw notFound(ROSTER_MESSAGES.runNotFound);
        if (run.status !== 'awaiting_approval') throw conflict(ROSTER_MESSAGES.notAwaiting, 'roster_run_not_waiting');
        const source = await rosterRepository.findSource(tx, caller.organizationId, run.sourceId);
        const row = await rosterRepository.updateRun(tx, caller.organizationId, runId, {
          status: 'rejected',
          preview: null,
          decidedBy: caller.userId,
        });
        await auditRepository.record(tx, {
          organizationId: caller.organizationId,
          actorId: caller.userId,
          action: 'roster.run_rejected',
          targetType: 'roster_run',
          targetId: runId,
          targetLabel: source ? sourceLabel(source) : null,
        });
        return toRunDto(row!);
      });
    },

    /**
     * What the schedule does each minute on every instance: deactivate those whose grace has
     * passed, then run the sources that are due, each taken by one instance only (the claim).
     * Answers the runs this instance made.
     */
    async tick(limit = 10): Promise<RosterRun[]> {
      await this.sweep();
      const runs: RosterRun[] = [];
      for (const source of await rosterRepository.claimDue(db, limit)) {
        try {
          runs.push(toRunDto(await runClaimed(source, 'schedule', null)));
        } catch (err) {
          log.error({ err, sourceId: source.id }, 'roster run failed');
        }
      }
      return runs;
    },

    /**
     * Deactivates the roster's recipients whose grace period has passed, through the recipients'
     * deactivation (their page's sessions end). Safe on every instance at once: a recipient is
     * deactivated by one update, and the others find nothing left to do.
     */
    async sweep(): Promise<number> {
      let total = 0;
      const byOrganization = new Map<string, number>();
      for (const s of await rosterRepository.enabledSources(db)) {
        // Several sources of one organization: the longest grace holds.
        byOrganization.set(s.organizationId, Math.max(byOrganization.get(s.organizationId) ?? 0, s.graceDays));
      }
      for (const [organizationId, graceDays] of byOrganization) {
        const feed: FeedCaller = { organizationId, feed: 'roster', userId: null };
        total += await db.transaction((tx) => directoryRecipients.deactivateDeparted(tx, feed, graceDays));
      }
      return total;
    },
  };
}

export type RosterService = ReturnType<typeof createRosterService>;
