import { ListState } from '@/components/ListState';
import { useWaitingItems } from '../api/waitingItems';
import { HoldControl } from './HoldControl';
import { ItemCard } from './ItemCard';
import { Section, SectionNote } from './Section';

/** What waits at the desk for the recipient, each with its hold. */
export function WaitingItemsSection() {
  const waiting = useWaitingItems();
  return (
    <Section
      title={waiting.data ? `Waiting for you (${waiting.data.total})` : 'Waiting for you'}
      description="Away for a while? Ask the desk to hold an item until a date."
    >
      <ListState
        data={waiting.data}
        isPending={waiting.isPending}
        isError={waiting.isError}
        skeleton={<SectionNote>Loading…</SectionNote>}
        error={{ title: 'Your waiting items could not be loaded', onRetry: () => void waiting.refetch() }}
        isEmpty={(page) => page.items.length === 0}
        empty={<SectionNote>Nothing is waiting for you right now.</SectionNote>}
      >
        {(page) => (
          <ul className="space-y-3">
            {page.items.map((item) => (
              <ItemCard key={item.id} item={item}>
                <HoldControl item={item} />
              </ItemCard>
            ))}
          </ul>
        )}
      </ListState>
    </Section>
  );
}
