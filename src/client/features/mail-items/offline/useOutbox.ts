import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useSignedInUser } from '@/lib/resources/currentUser';
import { setOutboxUser, snapshot, startOutbox, subscribe, type OutboxEntry } from './outbox';

/**
 * The signed-in person's items of the organization waiting in this browser (oldest first), kept
 * current. Starts the outbox once, for that person.
 */
export function useOutbox(organizationId: string | undefined): readonly OutboxEntry[] {
  const user = useSignedInUser();
  useEffect(() => {
    setOutboxUser(user.id);
    startOutbox();
  }, [user.id]);
  const all = useSyncExternalStore(subscribe, snapshot);
  return useMemo(
    () => all.filter((e) => e.organizationId === organizationId && e.userId === user.id),
    [all, organizationId, user.id],
  );
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
