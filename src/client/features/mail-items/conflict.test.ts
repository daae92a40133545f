import type { MailItem } from '@contract';
import { describe, expect, it } from 'vitest';
import { changesBetween, describeChange } from './conflict';

/** The conflict dialog's words (decision 044): what the other clerk changed, as a clerk reads it. */

const item = (overrides: Partial<MailItem> = {}): MailItem => ({
  id: '33333333-3333-4333-8333-333333333333',
  organizationId: '44444444-4444-4444-8444-444444444444',
  recipientId: '55555555-5555-4555-8555-555555555555',
  locationId: null,
  mailroomId: null,
  trackingNumber: '1Z999',
  type: 'package',
  sender: 'Acme',
  senderAddress: null,
  courierCompany: 'UPS',
  collectedByStaff: null,
  collectorName: null,
  description: null,
  size: null,
  weight: null,
  status: 'pending',
  arrivedAt: '2026-11-29T10:00:00.000Z',
  notifiedAt: null,
  deliveredAt: null,
  notes: null,
  photoUrl: null,
  thumbnailUrl: null,
  createdBy: null,
  handedOverBy: null,
  handoverId: null,
  heldUntil: null,
  expectedPackageId: null,
  revision: 1,
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
  isOverdue: false,
  recipient: {
    id: '55555555-5555-4555-8555-555555555555',
    firstName: 'Amara',
    lastName: 'Okafor',
    email: null,
    phone: null,
    unit: '4B',
    department: null,
  },
  location: null,
  mailroom: null,
  ...overrides,
});

describe('changesBetween', () => {
  it('names each changed field with its old and new value in words', () => {
    const seen = item();
    const now = item({
      status: 'notified',
      sender: 'Globex',
      type: 'certified_mail',
      recipient: { ...seen.recipient!, id: '66666666-6666-4666-8666-666666666666', firstName: 'Ben', lastName: 'Ito' },
      location: { id: '77777777-7777-4777-8777-777777777777', name: 'Shelf A', mailroomName: 'Lobby' },
      revision: 2,
    });
    expect(changesBetween(seen, now)).toEqual([
      { field: 'Status', before: 'Pending', after: 'Notified' },
      { field: 'Recipient', before: 'Amara Okafor', after: 'Ben Ito' },
      { field: 'Type', before: 'Package', after: 'Certified Mail' },
      { field: 'Sender', before: 'Acme', after: 'Globex' },
      { field: 'Storage', before: '—', after: 'Shelf A · Lobby' },
    ]);
  });

  it('says nothing of fields that did not change, or of the revision and times alone', () => {
    expect(changesBetween(item(), item({ revision: 5, updatedAt: '2026-11-29T11:00:00.000Z' }))).toEqual([]);
  });

  it('compares a list row only on what the row carries', () => {
    const { description: _d, notes: _n, ...row } = item();
    expect(changesBetween(row as MailItem, item({ notes: 'Fragile' }))).toEqual([]);
    expect(changesBetween(item(), item({ notes: 'Fragile' }))).toEqual([
      { field: 'Notes', before: '—', after: 'Fragile' },
    ]);
  });
});

describe('describeChange', () => {
  it("reads the clerk's own change back in the same words", () => {
    expect(describeChange({ status: 'delivered', collectorName: 'Amara Okafor' })).toEqual([
      'Status: Delivered',
      'Collected by: Amara Okafor',
    ]);
    expect(describeChange({ sender: null, recipientId: null })).toEqual(['Recipient: none', 'Sender: —']);
  });
});
