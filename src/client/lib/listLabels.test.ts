import { describe, expect, it } from 'vitest';
import { listValueLabel } from './listLabels';

/** Settings never shows a stored key (decision 063). */
describe('a Settings list value as people read it', () => {
  it('humanises the key-like types and sizes, and keeps what an admin wrote', () => {
    expect(listValueLabel('packageTypes', 'certified_mail')).toBe('Certified Mail');
    expect(listValueLabel('packageTypes', 'Fragile parcel')).toBe('Fragile parcel');
    expect(listValueLabel('packageSizes', 'extra_large')).toBe('Extra Large');
  });

  it("labels a status as its badge does, and keeps a courier's name as written", () => {
    expect(listValueLabel('customStatuses', 'needs_recipient')).toBe('Needs recipient');
    expect(listValueLabel('customStatuses', 'awaiting_customs')).toBe('Awaiting Customs');
    expect(listValueLabel('courierCompanies', 'ups')).toBe('ups');
  });
});
