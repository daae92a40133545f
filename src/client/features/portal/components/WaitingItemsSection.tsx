import { ListState } from '@/components/ListState';
import { useWaitingItems } from '../api/waitingItems';
import { HoldControl } from './HoldControl';
import { ItemCard } from './ItemCard';
import { Section, SectionNote } from './Section';
import { usePortalI18n } from '../i18n';

/** What waits at the desk for the recipient, each with its hold. */
export function WaitingItemsSection() {
  const waiting = useWaitingItems();
  const { t } = usePortalI18n();
  return (
    <Section
      title={waiting.data ? t('waiting.titleCount', { count: waiting.data.total }) : t('waiting.title')}
      description={t('waiting.description')}
    >
      <ListState
        data={waiting.data}
        isPending={waiting.isPending}
        isError={waiting.isError}
        skeleton={<SectionNote>{t('common.loading')}</SectionNote>}
        error={{ title: t('waiting.loadError'), onRetry: () => void waiting.refetch() }}
        isEmpty={(page) => page.items.length === 0}
        empty={<SectionNote>{t('waiting.empty')}</SectionNote>}
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
