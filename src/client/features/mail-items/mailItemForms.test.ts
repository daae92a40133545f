import { describe, expect, it } from 'vitest';
import { editMailItemForm, logMailForm } from './mailItemForms';

describe('the Log New Mail form', () => {
  const typed = {
    type: 'package',
    trackingNumber: ' 1Z999AA10123456784 ',
    sender: '',
    courierCompany: 'UPS',
    description: '  ',
    collectedByStaff: 'Dana Okonkwo',
    storage: 'none',
  };

  it('gives the request body its fields: trimmed, blanks as null', () => {
    expect(logMailForm.parse(typed)).toEqual({
      type: 'package',
      trackingNumber: '1Z999AA10123456784',
      sender: null,
      courierCompany: 'UPS',
      description: null,
      collectedByStaff: 'Dana Okonkwo',
      storage: 'none',
    });
  });

  it("refuses what the server refuses, in the contract's words", () => {
    const result = logMailForm.safeParse({ ...typed, type: ' ', sender: 'x'.repeat(256) });
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(messages).toEqual({
      type: 'Type is required',
      sender: 'Sender must be at most 255 characters',
    });
  });
});

describe('the Edit Mail Item form', () => {
  it('requires a type and a status, and clears blank optional fields', () => {
    expect(
      editMailItemForm.parse({
        type: 'letter',
        status: 'notified',
        sender: ' Acme ',
        trackingNumber: '',
        description: '',
      }),
    ).toEqual({ type: 'letter', status: 'notified', sender: 'Acme', trackingNumber: null, description: null });
    const result = editMailItemForm.safeParse({
      type: '',
      status: '',
      sender: '',
      trackingNumber: '',
      description: '',
    });
    expect(result.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['type', 'Type is required'],
      ['status', 'Status is required'],
    ]);
  });
});
