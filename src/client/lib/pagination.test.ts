import { describe, expect, it } from 'vitest';
import { pageRange, pageRangeText } from './pagination';

describe('pageRange', () => {
  it('numbers the rows of a page from 1', () => {
    expect(pageRange(0, 25, 30)).toEqual({ first: 1, last: 25, pages: 2, hasPrevious: false, hasNext: true });
    expect(pageRange(1, 25, 30)).toEqual({ first: 26, last: 30, pages: 2, hasPrevious: true, hasNext: false });
  });

  it('has one page, and nothing before or after it, for a short or empty list', () => {
    expect(pageRange(0, 25, 25)).toMatchObject({ first: 1, last: 25, pages: 1, hasPrevious: false, hasNext: false });
    expect(pageRange(0, 25, 0)).toMatchObject({ first: 0, last: 0, pages: 1, hasNext: false });
  });

  it('reads a page past the end (rows deleted meanwhile) as the last one', () => {
    expect(pageRange(4, 10, 21)).toMatchObject({ first: 21, last: 21, pages: 3, hasPrevious: true, hasNext: false });
  });
});

describe('pageRangeText', () => {
  it('says which rows show and how many there are, with thousands separated', () => {
    expect(pageRangeText(pageRange(1, 25, 1204), 1204)).toBe('Showing 26–50 of 1,204');
  });
});
