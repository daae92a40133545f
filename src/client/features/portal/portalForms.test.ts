import { describe, expect, it } from 'vitest';
import { AddExpectedPackagesBody } from '../../../contract/expected-packages';
import { dayFromToday, formatDay } from './days';
import { ExpectedPackageForm, ItemHoldBody, ProxyBody } from './formSchemas';
import { PortalLinkRequestBody } from './requestLinkSchema';

/** A UPS number whose check digit is right, as a shop's email prints it. */
const UPS = '1Z12345E0205271686';

/** The first message of each field, as useSchemaForm shows them. */
function messages(values: Record<string, string>) {
  const result = ExpectedPackageForm.safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
}

describe("the recipient's page's forms, checked by the contract", () => {
  it('a number typed: the body the server takes, the label trimmed or left out', () => {
    const typed = { mode: 'number', trackingNumber: ' 1z12 345e 0205 2716 86 ', text: 'left over', label: '  ' };
    const body = ExpectedPackageForm.parse(typed);
    expect(body).toEqual({ trackingNumber: '1z12 345e 0205 2716 86' });
    expect(AddExpectedPackagesBody.safeParse(body).success).toBe(true);
    expect(ExpectedPackageForm.parse({ ...typed, label: ' Rain jacket ' })).toEqual({
      trackingNumber: '1z12 345e 0205 2716 86',
      label: 'Rain jacket',
    });
  });

  it('a shipping email pasted: its text alone is sent, whatever the number field holds', () => {
    const body = ExpectedPackageForm.parse({
      mode: 'paste',
      trackingNumber: 'x',
      text: `Your parcel ${UPS}`,
      label: '',
    });
    expect(body).toEqual({ text: `Your parcel ${UPS}` });
    expect(AddExpectedPackagesBody.safeParse(body).success).toBe(true);
  });

  it("each mode's empty field says what to do, on that field", () => {
    expect(messages({ mode: 'number', trackingNumber: '  ', text: '', label: '' })).toEqual({
      trackingNumber: 'Type the tracking number',
    });
    expect(messages({ mode: 'paste', trackingNumber: '', text: ' \n ', label: '' })).toEqual({
      text: 'Paste the shipping email',
    });
  });

  it("a number no carrier would issue is refused with the server's own sentence", () => {
    const typo = `${UPS.slice(0, -1)}7`;
    const server = AddExpectedPackagesBody.safeParse({ trackingNumber: typo });
    expect(server.success).toBe(false);
    expect(messages({ mode: 'number', trackingNumber: typo, text: '', label: '' })).toEqual({
      trackingNumber: server.error?.issues[0]?.message,
    });
  });

  it('a proxy needs a name; a hold needs a date or null', () => {
    expect(ProxyBody.safeParse({ name: '   ' }).error?.issues[0]?.message).toBe('Name is required');
    expect(ProxyBody.parse({ name: ' Jonas ' })).toEqual({ name: 'Jonas' });
    expect(ItemHoldBody.safeParse({ until: '' }).success).toBe(false);
    expect(ItemHoldBody.parse({ until: '2026-12-03' })).toEqual({ until: '2026-12-03' });
  });

  it('a link is asked for with an email address or a phone number, trimmed', () => {
    const message = (address: string) => PortalLinkRequestBody.safeParse({ address }).error?.issues[0]?.message;
    expect(message('  ')).toBe('Enter your email address or phone number');
    expect(message('jonas@')).toBe('Enter a valid email address or phone number');
    expect(message('12 34')).toBe('Enter a valid email address or phone number');
    expect(PortalLinkRequestBody.parse({ address: ' jonas@example.com ' })).toEqual({ address: 'jonas@example.com' });
    expect(PortalLinkRequestBody.parse({ address: '+1 555 123 4567' })).toEqual({ address: '+1 555 123 4567' });
  });
});

describe('the days of a hold', () => {
  it('counts local calendar days, across a month and a year', () => {
    const newYearsEve = new Date(2026, 11, 31, 23, 30);
    expect(dayFromToday(0, newYearsEve)).toBe('2026-12-31');
    expect(dayFromToday(1, newYearsEve)).toBe('2027-01-01');
    expect(dayFromToday(30, new Date(2026, 1, 10))).toBe('2026-03-12');
  });

  it('writes a day as the page shows it, in the local calendar', () => {
    expect(formatDay('2026-12-03')).toBe(
      new Date(2026, 11, 3).toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' }),
    );
    expect(formatDay('2026-12-03')).toMatch(/3/);
  });
});
