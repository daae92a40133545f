import type { Integration, NotificationMessage } from '@contract';
import { RefreshCw, ScrollText } from 'lucide-react';
import { EmptyState } from '@/components/EmptyState';
import { ListState } from '@/components/ListState';
import { useListPage } from '@/lib/useListPage';
import { Button } from '@/components/ui/button';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { NotificationStatusBadge } from '@/components/StatusBadge';
import { Pager } from '@/components/Pager';
import { formatDateTime, relativeTime } from '@/lib/format';
import { DELIVERIES_PAGE_SIZE, useDeliveries } from '../api/integrations';
import { IntegrationDialog, type ChosenIntegrationProps } from './IntegrationDialog';

const count = new Intl.NumberFormat();

function Latency({ ms }: { ms: number | null }) {
  return <>{ms === null ? '—' : `${count.format(ms)} ms`}</>;
}

function When({ message }: { message: NotificationMessage }) {
  const at = message.sentAt ?? message.createdAt;
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {relativeTime(at)}
    </time>
  );
}

function DeliveryTable({ items }: { items: NotificationMessage[] }) {
  return (
    <>
      <div className="hidden md:block">
        <Table aria-label="Deliveries">
          <TableHeader>
            <TableRow>
              <TableHead>Time</TableHead>
              <TableHead>Event</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Response</TableHead>
              <TableHead className="text-right">Attempts</TableHead>
              <TableHead className="text-right">Latency</TableHead>
              <TableHead>Last error</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((m) => (
              <TableRow key={m.id}>
                <TableCell className="whitespace-nowrap">
                  <When message={m} />
                </TableCell>
                <TableCell className="font-mono text-xs">{m.event}</TableCell>
                <TableCell>
                  <NotificationStatusBadge status={m.status} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{m.responseStatus ?? '—'}</TableCell>
                <TableCell className="text-right tabular-nums">{m.attempts}</TableCell>
                <TableCell className="text-right whitespace-nowrap tabular-nums">
                  <Latency ms={m.latencyMs} />
                </TableCell>
                <TableCell
                  className="max-w-56 truncate text-xs text-red-700 dark:text-red-300"
                  title={m.lastError ?? m.skipReason ?? undefined}
                >
                  {m.lastError ?? m.skipReason ?? <span className="text-fg-subtle">—</span>}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul aria-label="Deliveries" className="divide-y divide-line-subtle md:hidden">
        {items.map((m) => (
          <li key={m.id} className="space-y-1 py-3">
            <div className="flex items-center justify-between gap-2">
              <span className="min-w-0 truncate font-mono text-xs text-fg">{m.event}</span>
              <NotificationStatusBadge status={m.status} />
            </div>
            <p className="text-xs text-fg-subtle">
              <When message={m} /> · {m.responseStatus !== null ? `HTTP ${m.responseStatus}` : 'no response'} ·{' '}
              {m.attempts} {m.attempts === 1 ? 'attempt' : 'attempts'} · <Latency ms={m.latencyMs} />
            </p>
            {(m.lastError ?? m.skipReason) && (
              <p className="text-xs break-words text-red-700 dark:text-red-300">{m.lastError ?? m.skipReason}</p>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

function DeliveryLog({ organizationId, integration }: { organizationId: string; integration: Integration }) {
  const paging = useListPage(DELIVERIES_PAGE_SIZE);
  const log = useDeliveries(organizationId, integration.id, paging.page, true);

  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <p className="min-w-0 truncate font-mono text-xs text-fg-subtle">
          {integration.type === 'slack' ? integration.config.slackSettings?.teamName : integration.config.webhookUrl}
        </p>
        <Button variant="ghost" size="sm" onClick={() => void log.refetch()} disabled={log.isFetching}>
          <RefreshCw aria-hidden className={log.isFetching ? 'animate-spin' : undefined} /> Refresh
        </Button>
      </div>
      <div className="rounded-lg border border-line px-3 md:px-0">
        <ListState
          data={log.data}
          isPending={log.isPending}
          isError={log.isError}
          isEmpty={(data) => data.total === 0}
          error={{ title: 'The delivery log could not be loaded', onRetry: () => void log.refetch() }}
          skeleton={
            <SkeletonRows
              label="Loading deliveries"
              className="space-y-3 py-2"
              row={() => <Skeleton className="h-9 w-full" />}
            />
          }
          empty={
            <EmptyState icon={ScrollText} title="No deliveries yet">
              {integration.type === 'slack'
                ? 'Messages to Slack appear here with their outcome and timing.'
                : `Calls to ${integration.config.webhookUrl || 'this webhook'} appear here with their response and timing.`}{' '}
              Send a test to try it.
            </EmptyState>
          }
        >
          {(data) => <DeliveryTable items={data.items} />}
        </ListState>
      </div>
      <Pager label="Deliveries" {...paging.pagerFor(log)} className="border-t-0" />
    </div>
  );
}

/** A webhook's or Slack integration's delivery log: time, event, status, response, attempts, latency and last error. */
export function DeliveriesDialog({ organizationId, integration, onClose }: ChosenIntegrationProps) {
  return (
    <IntegrationDialog
      integration={integration}
      onClose={onClose}
      title="Deliveries"
      description={
        integration?.type === 'slack'
          ? 'Every message to Slack, newest first. Failed messages are retried with backoff; a rate limit waits as long as Slack asks.'
          : 'Every call to this webhook, newest first. Failed calls are retried with backoff for up to a day.'
      }
      className="max-w-4xl"
    >
      {(chosen) => <DeliveryLog organizationId={organizationId} integration={chosen} />}
    </IntegrationDialog>
  );
}
