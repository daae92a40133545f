import { describe, expect, it } from 'vitest';
import { formatHoldDay, isHeld } from './format';

describe('a hold as the desk reads it', () => {
  it('names the last day held: the day before the moment the hold ends', () => {
    // the midnight after Thursday, December 3 in the browser's own timezone
    const ends = new Date(2026, 11, 4, 0, 0, 0).toISOString();
    expect(formatHoldDay(ends)).toBe('Thu, Dec 3');
  });

  it('is held until that moment, and not after', () => {
    const now = Date.parse('2026-12-01T12:00:00Z');
    expect(isHeld('2026-12-01T12:00:01Z', now)).toBe(true);
    expect(isHeld('2026-12-01T12:00:00Z', now)).toBe(false);
    expect(isHeld(null, now)).toBe(false);
  });
});
