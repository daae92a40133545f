import {
  DELIVERED_BY_HANDOVER_ONLY,
  HANDED_OVER_STATUSES,
  NEEDS_RECIPIENT,
  NEEDS_RECIPIENT_FIRST,
  RECIPIENT_ALSO_EXPECTED,
  RECIPIENT_CHOSEN,
  RESOLVE_NOT_NEEDED,
  type RecipientSource,
} from '../../../contract';
import {
  FIELD_KEYS,
  type EditedRow,
  type HistoryEntry,
  type ItemFields,
  type MailItemRow,
  type OutboxEvent,
  type StateColumns,
} from './mail-items.columns';

/**
 * The rules of a mail item's life, and nothing else: no database, no clock, no request. Given the
 * item as it is, the change asked for, who asks and when, each rule answers the columns to write,
 * the history rows and the outbox events that go with them, or a refusal. Every write of an item
 * (intake, edit, status change, the worker's auto-notify, delete) is worked out here and written
 * by mail-items.writes.ts, which writes exactly what it is given.
 *
 * The rules (decision 006): an item starts pending; any status of the organization's list may
 * follow any other; the server sets notifiedAt the first time an item is notified, deliveredAt
 * and handedOverBy on delivery, and clears both when a handed-over item goes back to pending or
 * to a status that is not a hand-over; a hold (decision 035) ends when the item is handed over or
 * returned; delivered items are frozen unless the organization allows
 * edits after delivery (their status can still change); notified, delivered and returned are
 * events the outbox carries; delete is allowed in any status and keeps the history.
 */

const PENDING = 'pending';
const NOTIFIED = 'notified';
const DELIVERED = 'delivered';
/** Delivered in any spelling an organization's list or a caller may give it ("Delivered"). */
export const isDeliveredStatus = (status: string) => status.trim().toLowerCase() === DELIVERED;
export { NEEDS_RECIPIENT } from '../../../contract';

/** The staff member who asks (a user id), or null for the system (the worker's auto-notify). */
export type Actor = string | null;

/** What a rule decided: the columns to set, and the history rows and events written with them. */
export type Change<Columns> = { ok: true; set: Columns; history: HistoryEntry[]; events: OutboxEvent[] };
export type Refusal = { ok: false; status: 400 | 409; code: string; message: string };

export const EDIT_AFTER_DELIVERY: Refusal = {
  ok: false,
  status: 409,
  code: 'edit_after_delivery',
  message: 'Delivered items cannot be edited. An admin can allow it in Settings > Customization.',
};
export const NOT_PENDING: Refusal = {
  ok: false,
  status: 409,
  code: 'not_pending',
  message: 'Only a pending item is marked notified by its arrival message',
};

const isHandedOver = (status: string) => (HANDED_OVER_STATUSES as readonly string[]).includes(status);

const entry = (
  action: string,
  performedBy: Actor,
  previousStatus: string | null = null,
  newStatus: string | null = null,
  notes: string | null = null,
): HistoryEntry => ({ action, previousStatus, newStatus, notes, performedBy });

/**
 * How a recipient was chosen, as the timeline says it (decision 047): `how` when the recipient
 * does not expect the item's tracking number, `ifExpected` when the statement finds they do
 * (only the statement knows). "From an expected package" is said only then: a request that says
 * so for someone who does not expect the number is recorded as the clerk's choice.
 */
function recipientChoice(source: RecipientSource | undefined): { how: string; ifExpected: string } {
  if (source === 'expected') return { how: RECIPIENT_CHOSEN.clerk, ifExpected: RECIPIENT_CHOSEN.expected };
  const how = RECIPIENT_CHOSEN[source ?? 'clerk'];
  return { how, ifExpected: `${how}; ${RECIPIENT_ALSO_EXPECTED}` };
}

/**
 * Logging an item: it starts pending, with its `created` row (which counts it for the month) and
 * event. With a recipient, the row says how they were chosen (`recipient`, decision 047).
 */
export function intake(
  actor: string,
  recipient?: { source?: RecipientSource },
): Change<StateColumns> & { ifExpected: string | null } {
  const choice = recipient ? recipientChoice(recipient.source) : undefined;
  return {
    ok: true,
    set: {
      status: PENDING,
      notifiedAt: null,
      deliveredAt: null,
      handedOverBy: null,
      handoverId: null,
      heldUntil: null,
    },
    history: [entry('created', actor, null, PENDING, choice ? `Recipient ${choice.how}` : null)],
    events: [{ event: 'mail_item.created', payload: {} }],
    ifExpected: choice ? `Recipient ${choice.ifExpected}` : null,
  };
}

/**
 * Logging an item the desk cannot tell the recipient of (decision 041): it waits in
 * 'needs_recipient', out of the pickup flow. Its one event, `mail_item.needs_recipient`, is for the
 * staff's channels (a Teams card, decision 065): no recipient can be told yet, and webhooks hear
 * of the item (`mail_item.created`) when it enters the flow, at its resolution.
 */
export function intakeWithoutRecipient(actor: string): Change<StateColumns> & { ifExpected: null } {
  const change = intake(actor);
  return {
    ok: true,
    set: { ...change.set, status: NEEDS_RECIPIENT },
    history: [entry('created', actor, null, NEEDS_RECIPIENT, 'Logged without a recipient')],
    events: [{ event: 'mail_item.needs_recipient', payload: {} }],
    ifExpected: null,
  };
}

const NOT_NEEDING_RECIPIENT: Refusal = {
  ok: false,
  status: 409,
  code: 'recipient_already_set',
  message: RESOLVE_NOT_NEEDED,
};
const RECIPIENT_FIRST: Refusal = {
  ok: false,
  status: 409,
  code: 'needs_recipient',
  message: NEEDS_RECIPIENT_FIRST,
};

/**
 * Resolving an item that needs a recipient: the recipient is set and the item starts the normal
 * flow as pending, with the event an intake has (`mail_item.created`), so the arrival message and
 * webhooks go out now, through the outbox, exactly as for an item logged with its recipient.
 */
export function resolve(
  before: Pick<MailItemRow, 'status'>,
  {
    recipientId,
    recipientName,
    actor,
    source,
  }: { recipientId: string; recipientName: string; actor: string; source?: RecipientSource },
): (Change<Partial<EditedRow>> & { ifExpected: string }) | Refusal {
  if (before.status !== NEEDS_RECIPIENT) return NOT_NEEDING_RECIPIENT;
  // The desk resolves by choosing: from the list, or one of those who expect the number.
  const choice = recipientChoice(source === 'label' ? 'clerk' : source);
  return {
    ok: true,
    set: { recipientId, status: PENDING },
    history: [
      entry('recipient_assigned', actor, NEEDS_RECIPIENT, PENDING, `Recipient: ${recipientName} (${choice.how})`),
    ],
    events: [{ event: 'mail_item.created', payload: {} }],
    ifExpected: `Recipient: ${recipientName} (${choice.ifExpected})`,
  };
}

/**
 * What a new status brings: notifiedAt the first time (kept afterwards), the hand-over on
 * delivery, and the hand-over cleared when a handed-over item goes back to a status that is not a
 * hand-over (pending, notified or a custom one), as decision 006 says. `returned` keeps a
 * delivery's hand-over (the item left the desk either way).
 */
export function statusEffects(
  before: Pick<StateColumns, 'status' | 'notifiedAt'>,
  status: string,
  actor: Actor,
  at: Date,
): Partial<StateColumns> {
  // A hold is the desk keeping an item for its recipient: it ends when the item leaves the desk.
  if (status === DELIVERED) return { deliveredAt: at, handedOverBy: actor, heldUntil: null };
  const leaves = isHandedOver(status) ? { heldUntil: null } : {};
  const notified = status === NOTIFIED && !before.notifiedAt ? { notifiedAt: at } : {};
  const handedBack =
    isHandedOver(before.status) && !isHandedOver(status)
      ? { deliveredAt: null, handedOverBy: null, handoverId: null }
      : {};
  return { ...notified, ...handedBack, ...leaves };
}

/** The history action of a status change: the lifecycle's own names, else `status_changed`. */
export const statusAction = (status: string) =>
  isHandedOver(status) || status === NOTIFIED ? status : 'status_changed';

/** Statuses whose change someone outside may hear of (webhooks, the recipient). */
const EVENT_ACTIONS = new Set(['notified', 'delivered', 'returned']);

/**
 * A status change by a staff member (Mark Notified, Returned, the edit dialog's status) or, for
 * delivered, by handOver alone (decision 053). `collectorName` is the collector given with the
 * hand-over, noted on its history row.
 * The same status again changes nothing.
 */
export function changeStatus(
  before: Pick<StateColumns, 'status' | 'notifiedAt'>,
  status: string,
  { actor, at, collectorName = null }: { actor: Actor; at: Date; collectorName?: string | null },
): Change<Partial<StateColumns>> {
  if (status === before.status) return { ok: true, set: {}, history: [], events: [] };
  const action = statusAction(status);
  return {
    ok: true,
    set: { status, ...statusEffects(before, status, actor, at) },
    history: [
      entry(
        action,
        actor,
        before.status,
        status,
        status === DELIVERED && collectorName ? `Collected by ${collectorName}` : null,
      ),
    ],
    events: EVENT_ACTIONS.has(action) ? [{ event: `mail_item.${action}`, payload: {} }] : [],
  };
}

export const ALREADY_HANDED_OVER: Refusal = {
  ok: false,
  status: 409,
  code: 'already_handed_over',
  message: 'This item was already handed over. Refresh to see who collected it.',
};

/** The proof a hand-over is given with (decision 031), recorded once for all its items. */
export type HandoverProof = {
  id: string;
  collectorName: string;
  /** How the desk knew the collector, as the history row says it. */
  identified: string;
  signed: boolean;
  photographed: boolean;
  proxyReason: string | null;
  /** The API key it came through (an integration), or null: a person at the desk (decision 050). */
  apiKeyName?: string | null;
};

/**
 * Handing an item over with proof (the desk's Hand over): a waiting item (any status but a
 * hand-over) becomes delivered, with the hand-over's proof, the collector's name, who handed it
 * over and when; its `delivered` row says who collected, how they were identified and what proof
 * was taken; the `delivered` event brings the pickup receipt. An item already handed over is refused.
 */
export function handOver(
  before: Pick<StateColumns, 'status' | 'notifiedAt'>,
  proof: HandoverProof,
  { actor, at }: { actor: string; at: Date },
): Change<Partial<EditedRow>> | Refusal {
  if (before.status === NEEDS_RECIPIENT) return RECIPIENT_FIRST;
  if (isHandedOver(before.status)) return ALREADY_HANDED_OVER;
  const change = changeStatus(before, DELIVERED, { actor, at, collectorName: proof.collectorName });
  const taken = [proof.identified, proof.signed && 'signed', proof.photographed && 'photo taken'].filter(Boolean);
  const notes = [
    `Collected by ${proof.collectorName}`,
    taken.join(', '),
    proof.proxyReason && `not on their list: ${proof.proxyReason}`,
    proof.apiKeyName && `through the API key “${proof.apiKeyName}”`,
  ]
    .filter(Boolean)
    .join(' · ');
  return {
    ...change,
    set: { ...change.set, collectorName: proof.collectorName, handoverId: proof.id },
    history: change.history.map((h) => ({ ...h, notes })),
    events: change.events.map((e) => ({ ...e, payload: { handoverId: proof.id } })),
  };
}

export const NOT_WAITING: Refusal = {
  ok: false,
  status: 409,
  code: 'not_waiting',
  message: 'This item was already collected or returned, so it cannot be held.',
};

/**
 * A hold asked by the item's recipient on their own page (decision 035): a waiting item is kept
 * for them until `until` (the moment the hold ends), or the hold is lifted (null). Not overdue and
 * no reminder meanwhile. The history row says so, by nobody on the staff: the recipient asked.
 * The same hold again changes nothing; an item already handed over or returned is refused.
 */
export function hold(
  before: Pick<StateColumns, 'status' | 'heldUntil'>,
  until: Date | null,
  { label }: { label: string | null },
): Change<Partial<StateColumns>> | Refusal {
  if (isHandedOver(before.status)) return NOT_WAITING;
  if ((before.heldUntil?.getTime() ?? null) === (until?.getTime() ?? null)) {
    return { ok: true, set: {}, history: [], events: [] };
  }
  const notes = until ? `Held until ${label} at the recipient’s request` : 'Hold lifted by the recipient';
  return {
    ok: true,
    set: { heldUntil: until },
    history: [entry(until ? 'held' : 'hold_lifted', null, null, null, notes)],
    events: [],
  };
}

/**
 * The arrival message of an item's intake was accepted (email or SMS): a still pending item
 * becomes notified, by nobody, and its `notified` event says so (`source: 'auto'`: it goes to
 * webhooks only, the recipient already has their message). Anything but pending is left alone.
 */
export function autoNotify(
  before: Pick<StateColumns, 'status' | 'notifiedAt'> | undefined,
  { via, at }: { via: 'email' | 'sms'; at: Date },
): Change<Partial<StateColumns>> | Refusal {
  if (!before || before.status !== PENDING) return NOT_PENDING;
  const change = changeStatus(before, NOTIFIED, { actor: null, at });
  return {
    ...change,
    history: change.history.map((h) => ({ ...h, notes: via === 'email' ? 'Notified by email' : 'Notified by SMS' })),
    events: change.events.map((e) => ({ ...e, payload: { source: 'auto' } })),
  };
}

export const DELIVERED_BY_HANDOVER: Refusal = {
  ok: false,
  status: 400,
  code: 'delivered_by_handover_only',
  message: DELIVERED_BY_HANDOVER_ONLY,
};

const RESERVED_STATUS: Refusal = {
  ok: false,
  status: 409,
  code: 'reserved_status',
  message: 'An item is put under Needs a recipient only when it is logged without one.',
};

/** An edit as the service hands it over: values checked and resolved (storage, list spellings). */
export type EditRequest = {
  /** The fields sent; a key that is absent (or undefined) was not sent. */
  fields: Partial<ItemFields>;
  /** The status asked for, in the list's spelling; undefined keeps it. */
  status?: string;
  /** A new photo replaces the current one. */
  newPhoto?: boolean;
  /** The photo is to be removed. */
  removePhoto?: boolean;
};

/**
 * Edits fields and/or changes the status. The collector's name given with the hand-over is part
 * of it, not an edit. A delivered item refuses edits (fields or photo) unless the organization
 * allows them; its status can still change. History: one `updated` row naming the changed fields
 * (the photo too), then the status row.
 */
export function edit(
  before: MailItemRow,
  request: EditRequest,
  { actor, at, allowEditAfterDelivery }: { actor: string; at: Date; allowEditAfterDelivery: boolean },
): Change<Partial<EditedRow>> | Refusal {
  const status = request.status ?? before.status;
  // An item waiting for its recipient leaves that status only by its resolution (which notifies),
  // and no other item enters it: it would lose its recipient's messages.
  const statusChanges = status !== before.status;
  if (before.status === NEEDS_RECIPIENT && (statusChanges || request.fields.recipientId)) return RECIPIENT_FIRST;
  if (statusChanges && status === NEEDS_RECIPIENT) return RESERVED_STATUS;
  // Delivered is reached only by handOver, with its proof (decision 053): never by an edit.
  if (statusChanges && isDeliveredStatus(status)) return DELIVERED_BY_HANDOVER;
  const sent: Partial<ItemFields> = {};
  for (const field of FIELD_KEYS) {
    if (request.fields[field] !== undefined) (sent as Record<string, unknown>)[field] = request.fields[field];
  }
  const edits = FIELD_KEYS.filter((f) => f in sent && sent[f] !== before[f]);
  const photoChanged = Boolean(request.newPhoto) || Boolean(request.removePhoto && before.photoId);
  if (before.status === DELIVERED && !allowEditAfterDelivery && (edits.length > 0 || photoChanged)) {
    return EDIT_AFTER_DELIVERY;
  }
  const history: HistoryEntry[] = [];
  if (edits.length > 0 || request.newPhoto || request.removePhoto) {
    const named = [...edits, ...(request.newPhoto ? ['photo'] : []), ...(request.removePhoto ? ['photo removed'] : [])];
    history.push(entry('updated', actor, null, null, `Changed: ${named.join(', ')}`));
  }
  const statusChange = changeStatus(before, status, { actor, at, collectorName: sent.collectorName });
  return {
    ok: true,
    set: { ...sent, ...statusChange.set },
    history: [...history, ...statusChange.history],
    events: statusChange.events,
  };
}

/** Deleting, in any status: a `deleted` row and an event carrying the item as it was (the row is gone by then). */
export function remove(
  before: Pick<StateColumns, 'status'>,
  { actor, snapshot }: { actor: string; snapshot: object },
): Change<Record<string, never>> {
  return {
    ok: true,
    set: {},
    history: [entry('deleted', actor, before.status)],
    events: [{ event: 'mail_item.deleted', payload: { item: snapshot } }],
  };
}
