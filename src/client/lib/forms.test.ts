import { describe, expect, it } from 'vitest';
import { RecipientBody } from '../../contract/recipients';
import { LocationBody } from '../../contract/mailrooms';
import { withTextInputs } from './forms';

describe('withTextInputs', () => {
  const recipientForm = withTextInputs(RecipientBody, ['email', 'phone', 'unit', 'department']);
  const filled = {
    firstName: ' Maria ',
    lastName: 'Chen',
    email: ' Maria@Example.com ',
    phone: '',
    unit: ' 4B ',
    department: '   ',
    recipientType: 'resident' as const,
  };

  it("submits the contract's output: blanks become null, text is trimmed", () => {
    const parsed = recipientForm.parse(filled);
    expect(parsed).toEqual({
      firstName: 'Maria',
      lastName: 'Chen',
      email: 'maria@example.com',
      phone: null,
      unit: '4B',
      department: null,
      recipientType: 'resident',
    });
    expect(parsed).toEqual(RecipientBody.parse(filled));
  });

  it("refuses with the contract's own messages", () => {
    const result = recipientForm.safeParse({ ...filled, firstName: ' ', email: 'not-an-email', unit: 'x'.repeat(101) });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(messages).toEqual({
      firstName: 'First name is required',
      email: 'Invalid email format',
      unit: 'Unit must be less than 100 characters',
    });
  });

  it('takes only text for the named fields, as an input holds it', () => {
    expect(recipientForm.safeParse({ ...filled, phone: 5551234 }).success).toBe(false);
    expect(RecipientBody.safeParse({ ...filled, phone: null }).success).toBe(true);
  });

  it('hands a typed number to the contract, which coerces it', () => {
    const locationForm = withTextInputs(LocationBody, ['capacity', 'notes']);
    const base = {
      name: 'Shelf A',
      type: 'shelf' as const,
      notes: '',
      mailroomId: '0b6f3f0e-8a1e-4d55-9d0b-6a3f1f0e8a1e',
    };
    expect(locationForm.parse({ ...base, capacity: '12' })).toMatchObject({ capacity: 12, notes: null });
    expect(locationForm.safeParse({ ...base, capacity: '0' }).error?.issues[0]?.message).toBe(
      'Capacity must be at least 1',
    );
  });
});
