import { ListState } from '@/components/ListState';
import { Button } from '@/components/ui/button';
import { usePastItems } from '../api/pastItems';
import { ItemCard } from './ItemCard';
import { Section, SectionNote } from './Section';
import { usePortalI18n } from '../i18n';

/** What was collected or returned, newest first, a page at a time. */
export function PastItemsSection() {
  const past = usePastItems();
  const { t } = usePortalI18n();
  const items = past.data?.pages.flatMap((page) => page.items);
  const total = past.data?.pages.at(-1)?.total ?? 0;
  return (
    <Section title={t('past.title')} description={t('past.description')}>
      <ListState
        data={items}
        isPending={past.isPending}
        isError={past.isError}
        skeleton={<SectionNote>{t('common.loading')}</SectionNote>}
        error={{ title: t('past.loadError'), onRetry: () => void past.refetch() }}
        empty={<SectionNote>{t('past.empty')}</SectionNote>}
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
                {t('past.more', { count: total - shown.length })}
              </Button>
            )}
          </>
        )}
      </ListState>
    </Section>
  );
}
