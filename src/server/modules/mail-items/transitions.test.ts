import { describe, expect, it } from 'vitest';
import { FIELD_KEYS, type MailItemRow } from './mail-items.columns';
import {
  autoNotify,
  changeStatus,
  ALREADY_HANDED_OVER,
  EDIT_AFTER_DELIVERY,
  DELIVERED_BY_HANDOVER,
  edit,
  handOver,
  hold,
  intake,
  NOT_PENDING,
  NOT_WAITING,
  remove,
  statusAction,
  statusEffects,
} from './transitions';

/** The rules alone: no database, no clock. */

const clerk = '11111111-1111-4111-8111-111111111111';
const other = '22222222-2222-4222-8222-222222222222';
const at = new Date('2026-11-21T10:00:00.000Z');
const earlier = new Date('2026-11-20T09:00:00.000Z');

function item(overrides: Partial<MailItemRow> = {}): MailItemRow {
  return {
    id: '33333333-3333-4333-8333-333333333333',
    organizationId: '44444444-4444-4444-8444-444444444444',
    recipientId: null,
    locationId: null,
    mailroomId: null,
    trackingNumber: '1Z999',
    type: 'package',
    sender: 'Amazon',
    courierCompany: 'UPS',
    collectedByStaff: null,
    collectorName: null,
    senderAddress: null,
    description: null,
    size: null,
    weight: null,
    status: 'pending',
    arrivedAt: earlier,
    notifiedAt: null,
    deliveredAt: null,
    notes: null,
    photoId: null,
    createdBy: clerk,
    handedOverBy: null,
    handoverId: null,
    heldUntil: null,
    expectedPackageId: null,
    revision: 1,
    createdAt: earlier,
    updatedAt: earlier,
    ...overrides,
  };
}
const ctx = { actor: clerk, at, allowEditAfterDelivery: false };
const ok = <T extends { ok: boolean }>(r: T) => {
  expect(r.ok).toBe(true);
  return r as Extract<T, { ok: true }>;
};

describe('intake', () => {
  it('starts pending with nothing handed over, a created row by the clerk and a created event', () => {
    expect(intake(clerk)).toEqual({
      ok: true,
      set: {
        status: 'pending',
        notifiedAt: null,
        deliveredAt: null,
        handedOverBy: null,
        handoverId: null,
        heldUntil: null,
      },
      history: [{ action: 'created', previousStatus: null, newStatus: 'pending', notes: null, performedBy: clerk }],
      events: [{ event: 'mail_item.created', payload: {} }],
      ifExpected: null,
    });
  });

  it('with a recipient, its row says how they were chosen; "expected" only if the statement finds they expect it', () => {
    const notes = (source?: 'label' | 'expected' | 'clerk') => {
      const change = intake(clerk, { source });
      return [change.history[0]!.notes, change.ifExpected];
    };
    expect(notes('label')).toEqual([
      'Recipient from the label',
      'Recipient from the label; they had registered this tracking number',
    ]);
    expect(notes('clerk')).toEqual(notes(undefined));
    expect(notes('expected')).toEqual([
      'Recipient chosen by the clerk',
      'Recipient from an expected package: they registered this tracking number',
    ]);
  });
});

describe('statusEffects (what a new status brings)', () => {
  it('notified sets notifiedAt the first time only', () => {
    expect(statusEffects({ status: 'pending', notifiedAt: null }, 'notified', clerk, at)).toEqual({ notifiedAt: at });
    expect(statusEffects({ status: 'pending', notifiedAt: earlier }, 'notified', clerk, at)).toEqual({});
  });

  it('delivered sets deliveredAt and the staff member who handed it over, from any status', () => {
    for (const from of ['pending', 'notified', 'returned', 'awaiting ID']) {
      expect(statusEffects({ status: from, notifiedAt: null }, 'delivered', clerk, at)).toEqual({
        deliveredAt: at,
        handedOverBy: clerk,
        heldUntil: null,
      });
    }
  });

  it('pending, or a status that is not a hand-over, clears a hand-over', () => {
    for (const from of ['delivered', 'returned']) {
      for (const to of ['pending', 'awaiting ID']) {
        expect(statusEffects({ status: from, notifiedAt: null }, to, clerk, at)).toEqual({
          deliveredAt: null,
          handedOverBy: null,
          handoverId: null,
        });
      }
    }
    expect(statusEffects({ status: 'notified', notifiedAt: earlier }, 'pending', clerk, at)).toEqual({});
    expect(statusEffects({ status: 'pending', notifiedAt: null }, 'awaiting ID', clerk, at)).toEqual({});
  });

  it('keeps the hand-over when a delivered item is returned, and clears it when it goes back to notified', () => {
    // returned ends a hold like a delivery: the item left the desk
    expect(statusEffects({ status: 'delivered', notifiedAt: null }, 'returned', clerk, at)).toEqual({
      heldUntil: null,
    });
    expect(statusEffects({ status: 'delivered', notifiedAt: earlier }, 'notified', clerk, at)).toEqual({
      deliveredAt: null,
      handedOverBy: null,
      handoverId: null,
    });
    expect(statusEffects({ status: 'delivered', notifiedAt: null }, 'notified', clerk, at)).toEqual({
      notifiedAt: at,
      deliveredAt: null,
      handedOverBy: null,
      handoverId: null,
    });
  });
});

describe('hold', () => {
  const until = new Date('2026-12-04T05:00:00.000Z');
  it('keeps a waiting item until the moment given, with a row by nobody on the staff', () => {
    for (const status of ['pending', 'notified', 'awaiting ID']) {
      const change = hold({ status, heldUntil: null }, until, { label: 'Dec 3' });
      expect(change).toEqual({
        ok: true,
        set: { heldUntil: until },
        history: [
          {
            action: 'held',
            performedBy: null,
            previousStatus: null,
            newStatus: null,
            notes: 'Held until Dec 3 at the recipient’s request',
          },
        ],
        events: [],
      });
    }
  });

  it('lifts a hold, changes nothing for the same hold, and refuses an item that left the desk', () => {
    const lifted = hold({ status: 'pending', heldUntil: until }, null, { label: null });
    expect(lifted.ok && lifted.set).toEqual({ heldUntil: null });
    expect(lifted.ok && lifted.history[0]?.action).toBe('hold_lifted');
    expect(hold({ status: 'pending', heldUntil: new Date(until) }, until, { label: 'Dec 3' })).toEqual({
      ok: true,
      set: {},
      history: [],
      events: [],
    });
    for (const status of ['delivered', 'returned']) {
      expect(hold({ status, heldUntil: null }, until, { label: 'Dec 3' })).toEqual(NOT_WAITING);
    }
  });

  it('ends with a hand-over or a return', () => {
    expect(statusEffects({ status: 'pending', notifiedAt: null }, 'returned', clerk, at)).toEqual({ heldUntil: null });
    expect(statusEffects({ status: 'pending', notifiedAt: null }, 'delivered', clerk, at)).toMatchObject({
      heldUntil: null,
    });
  });
});

describe('changeStatus', () => {
  it('names the lifecycle actions and calls every other change status_changed', () => {
    expect(['notified', 'delivered', 'returned', 'pending', 'awaiting ID'].map(statusAction)).toEqual([
      'notified',
      'delivered',
      'returned',
      'status_changed',
      'status_changed',
    ]);
  });

  it('writes one history row and an event for notified, delivered and returned only', () => {
    const cases: Array<[string, string, string | null]> = [
      ['pending', 'notified', 'mail_item.notified'],
      ['pending', 'delivered', 'mail_item.delivered'],
      ['notified', 'delivered', 'mail_item.delivered'],
      ['pending', 'returned', 'mail_item.returned'],
      ['delivered', 'pending', null],
      ['pending', 'awaiting ID', null],
    ];
    for (const [from, to, event] of cases) {
      const change = changeStatus({ status: from, notifiedAt: null }, to, { actor: clerk, at });
      expect(change.set.status).toBe(to);
      expect(change.history).toEqual([
        { action: statusAction(to), previousStatus: from, newStatus: to, notes: null, performedBy: clerk },
      ]);
      expect(change.events).toEqual(event ? [{ event, payload: {} }] : []);
    }
  });

  it('notes the collector on a delivery, not on other statuses', () => {
    const delivered = changeStatus({ status: 'notified', notifiedAt: earlier }, 'delivered', {
      actor: clerk,
      at,
      collectorName: 'Amara Okafor',
    });
    expect(delivered.history[0]!.notes).toBe('Collected by Amara Okafor');
    const returned = changeStatus({ status: 'notified', notifiedAt: earlier }, 'returned', {
      actor: clerk,
      at,
      collectorName: 'Amara Okafor',
    });
    expect(returned.history[0]!.notes).toBeNull();
  });

  it('changes nothing for the same status', () => {
    expect(changeStatus({ status: 'notified', notifiedAt: earlier }, 'notified', { actor: clerk, at })).toEqual({
      ok: true,
      set: {},
      history: [],
      events: [],
    });
  });
});

describe('autoNotify (the arrival message was accepted)', () => {
  it('makes a pending item notified by nobody, noting the channel, with an auto event', () => {
    expect(autoNotify(item(), { via: 'email', at })).toEqual({
      ok: true,
      set: { status: 'notified', notifiedAt: at },
      history: [
        {
          action: 'notified',
          previousStatus: 'pending',
          newStatus: 'notified',
          notes: 'Notified by email',
          performedBy: null,
        },
      ],
      events: [{ event: 'mail_item.notified', payload: { source: 'auto' } }],
    });
    const sms = ok(autoNotify(item(), { via: 'sms', at }));
    expect(sms.history[0]!.notes).toBe('Notified by SMS');
  });

  it('keeps an earlier notifiedAt (an item notified, then put back to pending)', () => {
    // Only the status changes: notifiedAt stays as it was.
    expect(ok(autoNotify(item({ notifiedAt: earlier }), { via: 'email', at })).set).toEqual({ status: 'notified' });
  });

  it('leaves anything but a pending item alone, and a deleted one', () => {
    for (const status of ['notified', 'delivered', 'returned', 'awaiting ID']) {
      expect(autoNotify(item({ status }), { via: 'email', at })).toBe(NOT_PENDING);
    }
    expect(autoNotify(undefined, { via: 'email', at })).toBe(NOT_PENDING);
  });
});

describe('edit', () => {
  it('writes the fields sent, names the changed ones in one updated row, and sends no event', () => {
    const change = ok(
      edit(item(), { fields: { sender: 'Zappos', notes: 'by the door', trackingNumber: '1Z999' } }, ctx),
    );
    expect(change.set).toEqual({ sender: 'Zappos', notes: 'by the door', trackingNumber: '1Z999' });
    expect(change.history).toEqual([
      { action: 'updated', previousStatus: null, newStatus: null, notes: 'Changed: sender, notes', performedBy: clerk },
    ]);
    expect(change.events).toEqual([]);
  });

  it('names changed fields in the form’s order, whatever order they were sent in', () => {
    const change = ok(edit(item(), { fields: { notes: 'n', type: 'letter', sender: 's' } }, ctx));
    expect(change.history[0]!.notes).toBe('Changed: type, sender, notes');
    expect(FIELD_KEYS.slice(0, 6)).toEqual([
      'type',
      'recipientId',
      'locationId',
      'mailroomId',
      'trackingNumber',
      'sender',
    ]);
  });

  it('writes nothing to history for fields sent unchanged or undefined', () => {
    const change = ok(edit(item(), { fields: { sender: 'Amazon', description: undefined } }, ctx));
    expect(change).toEqual({ ok: true, set: { sender: 'Amazon' }, history: [], events: [] });
  });

  it('clears a field sent as null', () => {
    const change = ok(edit(item(), { fields: { courierCompany: null } }, ctx));
    expect(change.set).toEqual({ courierCompany: null });
    expect(change.history[0]!.notes).toBe('Changed: courierCompany');
  });

  it('names a new photo and a removed one', () => {
    expect(ok(edit(item(), { fields: {}, newPhoto: true }, ctx)).history[0]!.notes).toBe('Changed: photo');
    expect(ok(edit(item({ photoId: clerk }), { fields: {}, removePhoto: true }, ctx)).history[0]!.notes).toBe(
      'Changed: photo removed',
    );
    // Asking to remove a photo the item does not have is still noted (as before).
    expect(ok(edit(item(), { fields: { sender: 'X' }, removePhoto: true }, ctx)).history[0]!.notes).toBe(
      'Changed: sender, photo removed',
    );
  });

  it('a status change with field edits: the updated row first, then the status row and its event', () => {
    const change = ok(edit(item(), { fields: { notes: 'ID checked' }, status: 'notified' }, ctx));
    expect(change.set).toEqual({ notes: 'ID checked', status: 'notified', notifiedAt: at });
    expect(change.history.map((h) => h.action)).toEqual(['updated', 'notified']);
    expect(change.events).toEqual([{ event: 'mail_item.notified', payload: {} }]);
  });

  it('an edit never delivers (decision 053): the collector is an edit like any other', () => {
    for (const status of ['delivered', 'Delivered']) {
      expect(
        edit(item({ status: 'notified', notifiedAt: earlier }), { fields: { collectorName: 'Ada Lo' }, status }, ctx),
      ).toEqual(DELIVERED_BY_HANDOVER);
    }
    expect(ok(edit(item(), { fields: { collectorName: 'Ada Lo' } }, ctx)).history[0]!.notes).toBe(
      'Changed: collectorName',
    );
  });

  it('refuses edits of a delivered item unless the organization allows them; its status can still change', () => {
    const delivered = item({ status: 'delivered', deliveredAt: earlier, handedOverBy: other, photoId: other });
    expect(edit(delivered, { fields: { sender: 'After' } }, ctx)).toBe(EDIT_AFTER_DELIVERY);
    expect(edit(delivered, { fields: {}, newPhoto: true }, ctx)).toBe(EDIT_AFTER_DELIVERY);
    expect(edit(delivered, { fields: {}, removePhoto: true }, ctx)).toBe(EDIT_AFTER_DELIVERY);
    // A second delivery with another collector is an edit of a delivered item (two clerks at once).
    expect(edit(delivered, { fields: { collectorName: 'Ben' }, status: 'delivered' }, ctx)).toBe(EDIT_AFTER_DELIVERY);
    expect(EDIT_AFTER_DELIVERY).toMatchObject({ status: 409, code: 'edit_after_delivery' });

    expect(ok(edit(delivered, { fields: { sender: 'After' } }, { ...ctx, allowEditAfterDelivery: true })).set).toEqual({
      sender: 'After',
    });
    expect(ok(edit(delivered, { fields: { sender: 'Amazon' } }, ctx)).history).toEqual([]);
    const back = ok(edit(delivered, { fields: {}, status: 'pending' }, ctx));
    expect(back.set).toEqual({ status: 'pending', deliveredAt: null, handedOverBy: null, handoverId: null });
    expect(back.history[0]).toMatchObject({
      action: 'status_changed',
      previousStatus: 'delivered',
      newStatus: 'pending',
    });
    expect(back.events).toEqual([]);
  });

  it('a returned item is not frozen', () => {
    const returned = item({ status: 'returned' });
    expect(ok(edit(returned, { fields: { sender: 'After' } }, ctx)).set).toEqual({ sender: 'After' });
  });

  it('returns straight from pending (delivered is the hand-over’s)', () => {
    expect(edit(item(), { fields: {}, status: 'delivered' }, ctx)).toEqual(DELIVERED_BY_HANDOVER);
    const returned = ok(edit(item(), { fields: {}, status: 'returned' }, ctx));
    expect(returned.set).toEqual({ status: 'returned', heldUntil: null });
    expect(returned.events).toEqual([{ event: 'mail_item.returned', payload: {} }]);
  });
});

describe('remove', () => {
  it('in any status: a deleted row with the status it had, and an event carrying the item as it was', () => {
    const snapshot = { id: 'x', status: 'delivered' };
    expect(remove({ status: 'delivered' }, { actor: clerk, snapshot })).toEqual({
      ok: true,
      set: {},
      history: [{ action: 'deleted', previousStatus: 'delivered', newStatus: null, notes: null, performedBy: clerk }],
      events: [{ event: 'mail_item.deleted', payload: { item: snapshot } }],
    });
  });
});

describe('handOver (with proof)', () => {
  const proof = {
    id: '55555555-5555-4555-8555-555555555555',
    collectorName: 'Ben Ito',
    identified: 'pickup code',
    signed: true,
    photographed: false,
    proxyReason: null,
  };

  it('delivers a waiting item with the proof, the collector, who and when, in one delivered row and event', () => {
    for (const from of ['pending', 'notified', 'awaiting ID']) {
      expect(handOver({ status: from, notifiedAt: earlier }, proof, { actor: clerk, at })).toEqual({
        ok: true,
        set: {
          status: 'delivered',
          deliveredAt: at,
          handedOverBy: clerk,
          collectorName: 'Ben Ito',
          handoverId: proof.id,
          heldUntil: null,
        },
        history: [
          {
            action: 'delivered',
            previousStatus: from,
            newStatus: 'delivered',
            notes: 'Collected by Ben Ito · pickup code, signed',
            performedBy: clerk,
          },
        ],
        events: [{ event: 'mail_item.delivered', payload: { handoverId: proof.id } }],
      });
    }
  });

  it('says what was taken and why someone not on the list collected', () => {
    const r = ok(
      handOver(
        { status: 'pending', notifiedAt: null },
        {
          ...proof,
          identified: 'ID checked',
          signed: false,
          photographed: true,
          proxyReason: 'Neighbour, asked by phone',
        },
        { actor: clerk, at },
      ),
    );
    expect(r.history[0]!.notes).toBe(
      'Collected by Ben Ito · ID checked, photo taken · not on their list: Neighbour, asked by phone',
    );
  });

  it('refuses an item already handed over (delivered or returned)', () => {
    for (const from of ['delivered', 'returned']) {
      expect(handOver({ status: from, notifiedAt: null }, proof, { actor: clerk, at })).toBe(ALREADY_HANDED_OVER);
    }
    expect(ALREADY_HANDED_OVER).toMatchObject({ status: 409, code: 'already_handed_over' });
  });
});
