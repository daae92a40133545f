import { describe, expect, it } from 'vitest';
import { decideRecipient, editDistance, matchRecipient, unitKey, unitsOnLabel } from './matchRecipient';

const r = (
  id: string,
  firstName: string,
  lastName: string,
  unit: string | null = null,
  department: string | null = null,
) => ({
  id,
  firstName,
  lastName,
  unit,
  department,
});

const RECIPIENTS = [
  r('jane', 'Jane', 'Smith', '4B'),
  r('john', 'John', 'Smith', '12A'),
  r('maria', 'María', 'García', 'Room 204', 'Finance'),
  r('kwame', 'Kwame', 'Mensah', 'Unit 7'),
  r('li', 'Li', 'Wei', '310'),
  r('anne', 'Anne', "O'Brien-Hart", '5C'),
];

const best = (lines: string[]) => matchRecipient(lines, RECIPIENTS).candidates[0];

describe('label matcher', () => {
  it('counts a swap of two letters as one edit', () => {
    expect(editDistance('SMITH', 'SMTIH')).toBe(1);
    expect(editDistance('GARCIA', 'GARCIA')).toBe(0);
    expect(editDistance('MENSAH', 'MENSA')).toBe(1);
  });

  it('matches an exact name with full confidence', () => {
    expect(best(['JANE SMITH', '100 HARBOR WAY APT 4B', 'BOSTON MA 02110'])).toMatchObject({
      recipient: { id: 'jane' },
      confidence: 100,
    });
  });

  it('tolerates typos and OCR digit confusions', () => {
    expect(best(['JANE SMTIH'])?.recipient.id).toBe('jane');
    expect(best(['KWAME MENSHA'])?.recipient.id).toBe('kwame');
    expect(best(['KWAME MEN5AH'])?.recipient.id).toBe('kwame');
    expect(best(['MARIA GARCIA'])?.recipient.id).toBe('maria');
    expect(best(['MARIA GARCIA'])!.confidence).toBeGreaterThanOrEqual(90);
  });

  it('reads initials and either word order', () => {
    expect(best(['J. SMITH', 'APT 4B'])?.recipient.id).toBe('jane');
    expect(best(['SMITH, JANE'])?.recipient.id).toBe('jane');
    expect(best(['MENSAH KWAME'])?.confidence).toBe(100);
    expect(best(['ANNE OBRIEN HART'])?.recipient.id).toBe('anne');
  });

  it('lets the unit decide between two people of one last name', () => {
    expect(best(['J SMITH', 'UNIT 12A'])?.recipient.id).toBe('john');
    expect(best(['J SMITH', '#4B'])?.recipient.id).toBe('jane');
    const without = matchRecipient(['J SMITH'], RECIPIENTS);
    expect(decideRecipient(without, 80).kind).toBe('choose');
  });

  it('reads units and rooms however they are written', () => {
    expect(unitsOnLabel(['1 MAIN ST APT 4B', 'ROOM 204', 'UNIT 7', '#12A', 'STE 310'])).toEqual([
      '4B',
      '204',
      '7',
      '12A',
      '310',
    ]);
    expect(unitKey('Apt. 4-B')).toBe('4B');
    expect(best(['M GARCIA', 'ROOM 204'])?.recipient.id).toBe('maria');
  });

  it('flags a label that names two recipients and fills in neither', () => {
    const match = matchRecipient(['JANE SMITH & KWAME MENSAH'], RECIPIENTS);
    expect(match.twoNamed).toBe(true);
    expect(decideRecipient(match, 80)).toMatchObject({ kind: 'choose', reason: 'two-named' });
  });

  it("flags two recipients named even when the unit printed is only one's", () => {
    // Jane lives in 4B: the unit raises her and lowers Kwame, but the label still names both.
    const match = matchRecipient(['JANE SMITH & KWAME MENSAH', '100 HARBOR WAY APT 4B'], RECIPIENTS);
    expect(match.twoNamed).toBe(true);
    expect(decideRecipient(match, 80)).toMatchObject({ kind: 'choose', reason: 'two-named' });
  });

  it('fills in only at or above the threshold', () => {
    const match = matchRecipient(['JANE SMITH'], RECIPIENTS);
    expect(decideRecipient(match, 80)).toMatchObject({ kind: 'filled', candidate: { recipient: { id: 'jane' } } });
    const weak = matchRecipient(['SMYTHE'], RECIPIENTS);
    expect(decideRecipient(weak, 80).kind).not.toBe('filled');
  });

  it('answers nobody for text naming none of them', () => {
    expect(matchRecipient(['ACME WAREHOUSE', '55 INDUSTRIAL PKWY'], RECIPIENTS).candidates).toEqual([]);
    expect(decideRecipient(matchRecipient([], RECIPIENTS), 80)).toEqual({ kind: 'none' });
    expect(matchRecipient(['株式会社 東京'], RECIPIENTS).candidates).toEqual([]);
  });
});
