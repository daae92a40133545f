import { describe, expect, it } from 'vitest';
import type { MyOrganization } from '@contract';
import { pickOrganization, uniqueById } from './selection';

const org = (id: string, name = id) => ({ id, name }) as MyOrganization;

describe('organization selection (spec §4)', () => {
  it('collapses duplicates by id, keeping the first', () => {
    expect(uniqueById([org('a', 'A1'), org('b'), org('a', 'A2')]).map((o) => o.name)).toEqual(['A1', 'b']);
  });

  it('keeps the remembered organization while it is in the list, else falls back to the first', () => {
    const list = [org('a'), org('b')];
    expect(pickOrganization(list, 'b')?.id).toBe('b');
    expect(pickOrganization(list, 'gone')?.id).toBe('a');
    expect(pickOrganization(list, null)?.id).toBe('a');
    expect(pickOrganization([], 'a')).toBeNull();
  });
});
