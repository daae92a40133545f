import { describe, expect, it } from 'vitest';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { keysFor } from './liveEvents';
import { orgQueryKey } from './queryClient';
import { membersQueryKey, organizationsQueryKey } from './resources/keys';

const ORG = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

/** The queries the screens hold (as their features key them), and which a change marks stale. */
const shown: Record<string, QueryKey> = {
  'Mail Intake list': orgQueryKey(ORG, '/api/mail-items', { limit: 25 }),
  'needs-recipient badge': orgQueryKey(ORG, '/api/mail-items', 'needs-recipient', 'count'),
  'Pending Pickups summary': orgQueryKey(ORG, '/api/mail-items', 'pending-summary'),
  'dashboard cards': orgQueryKey(ORG, '/api/dashboard/stats'),
  'dashboard recent activity': orgQueryKey(ORG, '/api/dashboard/recent-activity', 5),
  History: orgQueryKey(ORG, '/api/history', { page: 1 }),
  'recipient list': orgQueryKey(ORG, '/api/recipients', { search: '' }),
  'storage locations': orgQueryKey(ORG, '/api/mailroom-locations'),
  settings: orgQueryKey(ORG, '/api/organization-settings'),
  members: membersQueryKey(ORG),
  'my organizations': organizationsQueryKey,
  "another organization's list": orgQueryKey(OTHER, '/api/mail-items', { limit: 25 }),
};

async function staleAfter(kind: Parameters<typeof keysFor>[1]) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  for (const key of Object.values(shown)) client.setQueryData(key, 'loaded');
  await Promise.all(keysFor(ORG, kind).map((queryKey) => client.invalidateQueries({ queryKey })));
  return Object.entries(shown)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();
}

describe('the live desk marks stale what a change shows on', () => {
  it('a mail item: the desk lists, the badge, the dashboard, History and the locations’ counts; nothing of another organization', async () => {
    expect(await staleAfter('mail-items')).toEqual(
      [
        'Mail Intake list',
        'needs-recipient badge',
        'Pending Pickups summary',
        'dashboard cards',
        'dashboard recent activity',
        'History',
        'storage locations',
      ].sort(),
    );
  });

  it('a recipient: their lists and the lists that show their names', async () => {
    expect(await staleAfter('recipients')).toEqual(
      [
        'recipient list',
        'Mail Intake list',
        'needs-recipient badge',
        'Pending Pickups summary',
        'dashboard cards',
        'dashboard recent activity',
        'History',
      ].sort(),
    );
  });

  it('storage and members: their own lists', async () => {
    expect(await staleAfter('storage')).toEqual(
      ['storage locations', 'Mail Intake list', 'needs-recipient badge', 'Pending Pickups summary'].sort(),
    );
    expect(await staleAfter('members')).toEqual(['members', 'my organizations'].sort());
  });
});
