import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import type { LiveEventKind } from '../../contract/live';
import { connectLiveEvents, type LiveBrowser } from './liveEvents';
import { orgQueryKey } from './queryClient';
import { invalidateMailItems, staleAfter } from './resources/invalidate';
import { membersQueryKey, organizationsQueryKey } from './resources/keys';
import { invalidateRecipients } from './resources/recipients';

const ORG = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

/** The queries the screens hold (as their features key them), and which a change marks stale. */
const shown: Record<string, QueryKey> = {
  'Mail Intake list': orgQueryKey(ORG, '/api/mail-items', { limit: 25 }),
  'needs-recipient badge': orgQueryKey(ORG, '/api/mail-items', 'needs-recipient', 'count'),
  'Pending Pickups summary': orgQueryKey(ORG, '/api/mail-items', 'pending-summary'),
  'dashboard cards': orgQueryKey(ORG, '/api/dashboard/stats'),
  'dashboard recent activity': orgQueryKey(ORG, '/api/dashboard/recent-activity', 5),
  'dashboard trends': orgQueryKey(ORG, '/api/dashboard/trends'),
  Reports: orgQueryKey(ORG, '/api/analytics', '30d'),
  History: orgQueryKey(ORG, '/api/history', { page: 1 }),
  'recipient list': orgQueryKey(ORG, '/api/recipients', { search: '' }),
  'storage locations': orgQueryKey(ORG, '/api/mailroom-locations'),
  settings: orgQueryKey(ORG, '/api/organization-settings'),
  members: membersQueryKey(ORG),
  'my organizations': organizationsQueryKey,
  "another organization's list": orgQueryKey(OTHER, '/api/mail-items', { limit: 25 }),
};

function loadedScreens() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  for (const key of Object.values(shown)) client.setQueryData(key, 'loaded');
  return client;
}

function staleIn(client: QueryClient) {
  return Object.entries(shown)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();
}

async function markedStaleBy(kind: Parameters<typeof staleAfter>[1]) {
  const client = loadedScreens();
  await Promise.all(staleAfter(ORG, kind).map((queryKey) => client.invalidateQueries({ queryKey })));
  return staleIn(client);
}

/** What shows mail items, and with them their recipients' names. */
const mailItemViews = [
  'Mail Intake list',
  'needs-recipient badge',
  'Pending Pickups summary',
  'dashboard cards',
  'dashboard recent activity',
  'dashboard trends',
  'Reports',
  'History',
];

describe('the live desk marks stale what a change shows on', () => {
  it('a mail item: the desk lists, the badge, the dashboard, Reports, History and the locations’ counts; nothing of another organization', async () => {
    expect(await markedStaleBy('mail-items')).toEqual([...mailItemViews, 'storage locations'].sort());
  });

  it('a recipient: their lists and the lists that show their names', async () => {
    expect(await markedStaleBy('recipients')).toEqual(['recipient list', ...mailItemViews].sort());
  });

  it('storage and members: their own lists', async () => {
    expect(await markedStaleBy('storage')).toEqual(
      ['storage locations', 'Mail Intake list', 'needs-recipient badge', 'Pending Pickups summary'].sort(),
    );
    expect(await markedStaleBy('members')).toEqual(['members', 'my organizations'].sort());
  });
});

/** An EventSource the test drives: it records what the client opened and closed. */
class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = FakeEventSource.OPEN;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    super();
    FakeEventSource.opened.push(this);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(event: string, data: unknown = {}) {
    this.dispatchEvent(new MessageEvent(event, { data: JSON.stringify(data) }));
  }
  /** The server closed it for good (a refusal: 401, 404, a full instance's 503). */
  fail() {
    this.readyState = FakeEventSource.CLOSED;
    this.onerror?.();
  }
}

describe('a save on this desk and the same change announced from another desk (issue 42)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.opened = [];
  });
  afterEach(() => vi.useRealTimers());

  /** What the live stream marks stale when another desk announces a change of `kind`. */
  async function staleByStream(kind: LiveEventKind) {
    const client = loadedScreens();
    const browser: LiveBrowser = {
      EventSource: FakeEventSource as unknown as typeof EventSource,
      onAttention: () => () => undefined,
    };
    const stop = connectLiveEvents(ORG, client, browser);
    const source = FakeEventSource.opened.at(-1)!;
    source.emit('ready');
    source.emit('change', { kind, ids: ['33333333-3333-4333-8333-333333333333'] });
    await vi.advanceTimersByTimeAsync(100);
    stop();
    return staleIn(client);
  }

  async function staleBySave(save: (client: QueryClient, organizationId: string) => Promise<unknown>) {
    const client = loadedScreens();
    await save(client, ORG);
    return staleIn(client);
  }

  it('a mail item: the same screens go stale, History among them', async () => {
    const bySave = await staleBySave(invalidateMailItems);
    expect(bySave).toContain('History');
    expect(bySave).toEqual(await staleByStream('mail-items'));
  });

  it('a recipient: the same screens go stale, History among them', async () => {
    const bySave = await staleBySave(invalidateRecipients);
    expect(bySave).toContain('History');
    expect(bySave).toEqual(await staleByStream('recipients'));
  });
});

describe('the live desk’s connection when the server ends the stream (decision 051)', () => {
  let attention: Set<() => void>;
  let browser: LiveBrowser;
  let client: QueryClient;
  let stop: () => void;
  const last = () => FakeEventSource.opened.at(-1)!;

  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.opened = [];
    attention = new Set();
    browser = {
      EventSource: FakeEventSource as unknown as typeof EventSource,
      onAttention: (listener) => {
        attention.add(listener);
        return () => attention.delete(listener);
      },
    };
    client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    client.setQueryData(shown['Mail Intake list']!, 'loaded');
    stop = connectLiveEvents(ORG, client, browser);
    last().emit('ready');
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it('`replaced`: the tab closes its stream and does not reconnect by itself, however long it waits', async () => {
    const first = last();
    first.emit('ended', { reason: 'replaced' });
    expect(first.readyState).toBe(FakeEventSource.CLOSED);
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(FakeEventSource.opened).toHaveLength(1);
  });

  it('`replaced`: looked at again, the tab opens one stream and refetches what it shows; once', async () => {
    last().emit('ended', { reason: 'replaced' });
    expect(attention.size).toBe(1);
    for (const listener of [...attention]) listener();
    expect(FakeEventSource.opened).toHaveLength(2);
    expect(attention.size).toBe(0);
    last().emit('ready');
    expect(client.getQueryState(shown['Mail Intake list']!)?.isInvalidated).toBe(true);
    // Replaced again (the other tab looked at in turn): again it waits to be looked at.
    last().emit('ended', { reason: 'replaced' });
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(FakeEventSource.opened).toHaveLength(2);
    expect(attention.size).toBe(1);
  });

  it('`shutdown` is left to the browser’s own reconnect; a refusal (a full instance’s 503) is retried after 2 s, doubling', async () => {
    last().emit('ended', { reason: 'shutdown' });
    expect(last().readyState).toBe(FakeEventSource.OPEN);
    last().fail();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(FakeEventSource.opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeEventSource.opened).toHaveLength(2);
    last().fail();
    await vi.advanceTimersByTimeAsync(3_999);
    expect(FakeEventSource.opened).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeEventSource.opened).toHaveLength(3);
  });

  it('a tab closed while waiting to be looked at opens nothing', () => {
    last().emit('ended', { reason: 'replaced' });
    stop();
    expect(attention.size).toBe(0);
    expect(FakeEventSource.opened).toHaveLength(1);
  });
});
