import { ListState } from '@/components/ListState';
import { Button } from '@/components/ui/button';
import { usePastItems } from '../api/pastItems';
import { ItemCard } from './ItemCard';
import { Section, SectionNote } from './Section';

/** What was collected or returned, newest first, a page at a time. */
export function PastItemsSection() {
  const past = usePastItems();
  const items = past.data?.pages.flatMap((page) => page.items);
  const total = past.data?.pages.at(-1)?.total ?? 0;
  return (
    <Section title="Past items" description="Collected or returned, newest first.">
      <ListState
        data={items}
        isPending={past.isPending}
        isError={past.isError}
        skeleton={<SectionNote>Loading…</SectionNote>}
        error={{ title: 'Your past items could not be loaded', onRetry: () => void past.refetch() }}
        empty={<SectionNote>No past items yet.</SectionNote>}
      >
        {(shown) => (
          <>
            <ul className="space-y-3">
              {shown.map((item) => (
                <ItemCard key={item.id} item={item} />
              ))}
            </ul>
            {past.hasNextPage && (
              <Button
                variant="outline"
                size="sm"
                className="mt-4"
                disabled={past.isFetchingNextPage}
                onClick={() => void past.fetchNextPage()}
              >
                Show more ({total - shown.length} left)
              </Button>
            )}
          </>
        )}
      </ListState>
    </Section>
  );
}
