import type { MyOrganization } from '@contract';
import { Download, Loader2 } from 'lucide-react';
import { useEffect } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { toastFailure, useErrorToast } from '@/lib/useErrorToast';
import { useExportHistory } from '../api/exportHistory';
import { HISTORY_PAGE_SIZE, useHistoryList, useHistoryStats } from '../api/history';
import { useHistoryParams } from '../hooks/useHistoryParams';
import { HistoryFilters } from './HistoryFilters';
import { HistoryStatCards } from './HistoryStatCards';
import { HistoryTable } from './HistoryTable';

export const historyTitle = 'History';
export const historyDescription = 'The audit trail of every item logged, notified and handed over';

/** Spec §2 History for one organization: filters in the URL, server-computed cards, the table and the export. */
export function HistoryView({ organization }: { organization: MyOrganization }) {
  const { filter, page, update } = useHistoryParams();
  const list = useHistoryList(organization.id, filter, page);
  const stats = useHistoryStats(organization.id, filter);
  const exporter = useExportHistory(organization.id);
  useErrorToast(list.error ?? stats.error, 'Failed to fetch history');

  const total = list.data?.total ?? 0;
  // a shared link or a narrower result can leave the page past the end: show the last page instead
  const lastPage = Math.max(0, Math.ceil(total / HISTORY_PAGE_SIZE) - 1);
  const pastEnd = Boolean(list.data) && !list.isPlaceholderData && page > lastPage;
  useEffect(() => {
    if (pastEnd) update({ page: lastPage }, { replace: true });
  }, [pastEnd, lastPage, update]);

  const exportReport = () =>
    exporter.mutate(filter, {
      onSuccess: (fileName) => toast({ title: 'Report exported', description: `Saved as ${fileName}.` }),
      onError: (err) => toastFailure('Failed to export history', err),
    });

  return (
    <>
      <PageHeader
        title={historyTitle}
        description={historyDescription}
        actions={
          <Button variant="outline" onClick={exportReport} disabled={exporter.isPending} aria-busy={exporter.isPending}>
            {exporter.isPending ? <Loader2 aria-hidden className="animate-spin" /> : <Download aria-hidden />}
            {exporter.isPending ? 'Exporting…' : 'Export Report'}
          </Button>
        }
      />
      <div className="space-y-4 sm:space-y-6">
        <Card className="p-4 sm:p-5">
          <HistoryFilters
            organizationId={organization.id}
            filter={filter}
            onChange={(change) => update(change)}
            onSearch={(search) => {
              if (search !== (filter.search ?? '')) update({ search }, { replace: true });
            }}
          />
        </Card>
        <HistoryStatCards
          data={stats.data}
          isLoading={stats.isPending}
          isStale={stats.isPlaceholderData && stats.isFetching}
        />
        <Card className="overflow-hidden">
          <HistoryTable
            organizationId={organization.id}
            items={list.data?.items}
            total={total}
            page={page}
            isLoading={list.isPending}
            isFetching={list.isPlaceholderData && list.isFetching}
            onPage={(next) => update({ page: next })}
            onWidenFilter={
              filter.type || filter.status || filter.search
                ? { label: 'Clear filters', run: () => update({ type: '', status: '', search: '' }) }
                : filter.range !== '0'
                  ? { label: 'Show all time', run: () => update({ range: '0' }) }
                  : undefined
            }
          />
        </Card>
      </div>
    </>
  );
}
