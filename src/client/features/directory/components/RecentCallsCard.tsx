import type { ScimRequest } from '@contract';
import { Activity } from 'lucide-react';
import { EmptyState } from '@/components/EmptyState';
import { ListState } from '@/components/ListState';
import { Pager } from '@/components/Pager';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';
import { formatDateTime, relativeTime } from '@/lib/format';
import { useListPage } from '@/lib/useListPage';
import { SCIM_REQUESTS_PAGE_SIZE, useScimRequests } from '../api/scimRequests';

const statusTone = (status: number) =>
  status >= 500 ? 'red' : status >= 400 ? (status === 404 ? 'neutral' : 'yellow') : 'green';

function CallRow({ call }: { call: ScimRequest }) {
  return (
    <li className="flex flex-col gap-1.5 px-4 py-3 sm:flex-row sm:items-center sm:gap-3 sm:px-5">
      <div className="flex min-w-0 flex-1 items-baseline gap-2">
        <span className="w-12 shrink-0 font-mono text-xs font-semibold text-fg-secondary sm:w-14">{call.method}</span>
        <code className="min-w-0 font-mono text-sm break-all text-fg sm:truncate" title={call.path}>
          {call.path}
          {call.filter && <span className="text-fg-subtle">?filter={call.filter} …</span>}
        </code>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 pl-14 text-xs text-fg-subtle sm:flex-nowrap sm:pl-0">
        <Badge tone={statusTone(call.status)} aria-label={`Status ${call.status}`}>
          {call.status}
        </Badge>
        <span className="whitespace-nowrap">{call.token?.name ?? 'Deleted token'}</span>
        <span className="whitespace-nowrap tabular-nums sm:w-16 sm:text-right">{call.durationMs} ms</span>
        <time
          className="whitespace-nowrap sm:w-28 sm:text-right"
          dateTime={call.createdAt}
          title={formatDateTime(call.createdAt)}
        >
          {relativeTime(call.createdAt)}
        </time>
      </div>
    </li>
  );
}

/**
 * Settings > Directory: every call the identity provider made with the organization's tokens
 * (decision 060), reads too, newest first, kept 30 days. Filter values (a userName, an email) are
 * never kept, only the attribute filtered on.
 */
export function RecentCallsCard({ organizationId }: { organizationId: string }) {
  const paging = useListPage(SCIM_REQUESTS_PAGE_SIZE);
  const calls = useScimRequests(organizationId, paging.page);
  const { data, isPending, isError, isPlaceholderData, refetch } = calls;
  paging.keepWithin(calls);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent calls</CardTitle>
        <CardDescription>
          Every request your identity provider made with a token, reads included, for 30 days. Filter values such as
          user names are not kept.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ListState
          data={data}
          isPending={isPending}
          isError={isError}
          isEmpty={(page) => page.items.length === 0}
          error={{ title: 'The calls could not be loaded', onRetry: () => void refetch(), retrySize: 'sm' }}
          skeleton={
            <SkeletonRows
              label="Loading the calls"
              className="space-y-3"
              row={() => <Skeleton className="h-8 w-full" />}
            />
          }
          empty={
            <EmptyState icon={Activity} title="No calls yet" className="rounded-lg border border-line py-8">
              Once your identity provider starts provisioning with a token, each request it makes is listed here with
              its result, so you can see a sync arrive or find the call that failed.
            </EmptyState>
          }
        >
          {(page) => (
            <>
              <ul
                aria-label="SCIM calls"
                aria-busy={isPlaceholderData || undefined}
                className="divide-y divide-line-subtle overflow-hidden rounded-lg border border-line"
              >
                {page.items.map((call) => (
                  <CallRow key={call.id} call={call} />
                ))}
              </ul>
              <Pager label="SCIM calls" {...paging.pagerFor(calls, isPlaceholderData)} className="mt-4" />
            </>
          )}
        </ListState>
      </CardContent>
    </Card>
  );
}
