import { describe, expect, it } from 'vitest';
import {
  PRINT_MAX_ITEMS,
  itemIdFromSlip,
  itemReference,
  itemSlipContent,
  locationIdFromLabel,
  locationLabelContent,
  printLabelsPath,
  printSlipsPath,
} from './printing';

const id = '38e48aa1-5f0c-4d1e-9a7b-1c2d3e4f5a6b';

describe('what printed labels say', () => {
  it('reads back the location of a shelf label and the item of a slip, whatever the case or spacing', () => {
    expect(locationIdFromLabel(locationLabelContent(id))).toBe(id);
    expect(locationIdFromLabel(` PIGEONHOLE:LOCATION:${id.toUpperCase()}\n`)).toBe(id);
    expect(itemIdFromSlip(itemSlipContent(id))).toBe(id);
  });

  it('takes nothing else for a label: a tracking number, a slip, a truncated id', () => {
    expect(locationIdFromLabel('1Z999AA10123456784')).toBeNull();
    expect(locationIdFromLabel(itemSlipContent(id))).toBeNull();
    expect(locationIdFromLabel(`pigeonhole:location:${id.slice(0, 30)}`)).toBeNull();
    expect(itemIdFromSlip(locationLabelContent(id))).toBeNull();
  });

  it('prints a short reference of the id', () => {
    expect(itemReference(id)).toBe('38E4-8AA1');
  });

  it('builds the print views’ addresses, at most PRINT_MAX_ITEMS slips', () => {
    expect(printLabelsPath('org1', { locationId: 'loc1' })).toBe('/print/labels?org=org1&location=loc1');
    expect(printLabelsPath('org1', { mailroomId: 'm1' })).toBe('/print/labels?org=org1&mailroom=m1');
    const many = Array.from({ length: PRINT_MAX_ITEMS + 5 }, (_, i) => `i${i}`);
    const items = new URLSearchParams(printSlipsPath('org1', many).split('?')[1]).get('items')!;
    expect(items.split(',')).toHaveLength(PRINT_MAX_ITEMS);
  });
});
