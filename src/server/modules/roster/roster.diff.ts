import type { RosterPreview } from '../../../contract';
import type { CheckedRow } from '../recipients/recipients.import';
import type { FeedChanges, FeedValues } from '../recipients/recipients.service';

/**
 * A roster run as a diff against the recipients the roster keeps, as pure functions: who is new,
 * who changed, who moved (their unit changed), who left (kept before, absent now) and who is as
 * they were. Matched by the roster's id column (`external_id`); a new person whose email a
 * recipient typed by hand already has is taken over, not duplicated.
 */

export type ManagedRecipient = {
  id: string;
  externalId: string | null;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  unit: string | null;
  department: string | null;
  recipientType: FeedValues['recipientType'];
  isActive: boolean;
  leftAt: Date | null;
};

/** A parsed row with the id column read. */
export type RosterRow = CheckedRow & { externalId: string };

export type RowError = { line: number; messages: string[] };

export type RosterDiff = {
  changes: FeedChanges;
  preview: Omit<RosterPreview, 'run' | 'reason'>;
  unchanged: number;
  rowErrors: RowError[];
  /** The roster's present people before this run (active, not left): the base of the share. */
  present: number;
};

const COMPARED = ['firstName', 'lastName', 'email', 'phone', 'department', 'recipientType'] as const;
const same = (a: string | null, b: string | null) => (a ?? '') === (b ?? '');
const sameUnit = (a: string | null, b: string | null) =>
  (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/**
 * `byEmail` answers the recipients holding an email (lower case) with the feed that keeps them:
 * a hand-typed one is taken over; one another feed keeps (or another roster id) makes the row an
 * error rather than a second recipient with that address.
 */
export function diffRoster(
  rows: RosterRow[],
  managed: ManagedRecipient[],
  byEmail: Map<string, { id: string; managedBy: string | null }>,
): RosterDiff {
  const byExternal = new Map<string, ManagedRecipient>();
  for (const m of managed) if (m.externalId) byExternal.set(m.externalId, m);

  const changes: FeedChanges = { insert: [], adopt: [], update: [], leave: [] };
  const preview: RosterDiff['preview'] = { added: [], changed: [], moved: [], left: [] };
  const rowErrors: RowError[] = [];
  const seen = new Set<string>();
  const adopted = new Set<string>();
  let unchanged = 0;

  for (const row of rows) {
    const messages = [...row.errors];
    if (row.externalId === '') messages.push('The id column is empty');
    else if (seen.has(row.externalId)) messages.push(`The id ${row.externalId} is on an earlier line too`);
    if (row.externalId !== '') seen.add(row.externalId);
    if (messages.length > 0 || !row.data) {
      rowErrors.push({ line: row.line, messages });
      continue;
    }
    const values: FeedValues = { ...row.data, externalId: row.externalId };
    const person = {
      externalId: row.externalId,
      firstName: values.firstName,
      lastName: values.lastName,
      email: values.email,
      unit: values.unit,
    };
    const current = byExternal.get(row.externalId);
    const email = values.email?.toLowerCase() ?? null;
    const holder = email ? byEmail.get(email) : undefined;
    if (holder && holder.id !== current?.id && (holder.managedBy !== null || adopted.has(holder.id))) {
      rowErrors.push({ line: row.line, messages: [`The email ${values.email} belongs to another recipient`] });
      continue;
    }
    if (!current) {
      if (holder) {
        adopted.add(holder.id);
        changes.adopt.push({ id: holder.id, values });
        preview.added.push({ ...person, adoptsRecipientId: holder.id });
      } else {
        changes.insert.push(values);
        preview.added.push({ ...person, adoptsRecipientId: null });
      }
      continue;
    }
    const returns = current.leftAt !== null || !current.isActive;
    const fields = COMPARED.filter((f) => !same(current[f], values[f]));
    const moved = !sameUnit(current.unit, values.unit);
    if (moved) {
      changes.update.push({ id: current.id, values });
      preview.moved.push({ ...person, recipientId: current.id, fromUnit: current.unit });
    } else if (fields.length > 0 || returns) {
      changes.update.push({ id: current.id, values });
      preview.changed.push({ ...person, recipientId: current.id, fields: [...fields], returns });
    } else {
      unchanged += 1;
    }
  }

  let present = 0;
  for (const m of managed) {
    if (!m.isActive || m.leftAt !== null) continue;
    present += 1;
    // A row with errors still says the person is there: only absence means they left.
    if (m.externalId && !seen.has(m.externalId)) {
      changes.leave.push(m.id);
      preview.left.push({
        externalId: m.externalId,
        firstName: m.firstName,
        lastName: m.lastName,
        email: m.email,
        unit: m.unit,
        recipientId: m.id,
      });
    }
  }
  return { changes, preview, unchanged, rowErrors, present };
}

/** Why the run waits for an admin, or null to apply it at once. */
export function approvalReason(
  diff: Pick<RosterDiff, 'changes' | 'present'>,
  opts: { firstRun: boolean; approvalShare: number },
): 'first_run' | 'share_left' | null {
  if (opts.firstRun) return 'first_run';
  const left = diff.changes.leave.length;
  if (left > 0 && (diff.present === 0 || (left * 100) / diff.present > opts.approvalShare)) return 'share_left';
  return null;
}
