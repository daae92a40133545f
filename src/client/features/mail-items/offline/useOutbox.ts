import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { snapshot, startOutbox, subscribe, type OutboxEntry } from './outbox';

/** The organization's items waiting in this browser (oldest first), kept current. Starts the outbox once. */
export function useOutbox(organizationId: string | undefined): readonly OutboxEntry[] {
  useEffect(startOutbox, []);
  const all = useSyncExternalStore(subscribe, snapshot);
  return useMemo(() => all.filter((e) => e.organizationId === organizationId), [all, organizationId]);
}

/** Whether the browser says it is online, kept current. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (changed) => {
      window.addEventListener('online', changed);
      window.addEventListener('offline', changed);
      return () => {
        window.removeEventListener('online', changed);
        window.removeEventListener('offline', changed);
      };
    },
    () => navigator.onLine,
  );
}
