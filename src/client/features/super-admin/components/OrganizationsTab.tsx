import type { SuperAdminOrganization } from '@contract';
import { Building2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Pager } from '@/components/Pager';
import { formatDate } from '@/lib/format';
import { SUBSCRIPTION_STATUS_STYLES } from '@/lib/statusStyles';
import { usePlatformOrganizations, PLATFORM_PAGE_SIZE } from '../api/platform';
import { useLastPageWhenPastEnd } from '../hooks/useConsoleParams';
import { ManageOrganizationDialog } from './ManageOrganizationDialog';
import { PLAN_LABELS, STATUS_LABELS } from './planLabels';
import { PlatformListState, type ListPaging } from './PlatformListState';

const plural = (n: number, word: string) => `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;

function StatusBadge({ organization }: { organization: SuperAdminOrganization }) {
  return (
    <Badge tone={SUBSCRIPTION_STATUS_STYLES[organization.subscriptionStatus].tone}>
      {STATUS_LABELS[organization.subscriptionStatus]}
    </Badge>
  );
}

/** Every organization, newest first, searched and paged on the server. */
export function OrganizationsTab({ search, page, onPage }: { search: string } & ListPaging) {
  const [managing, setManaging] = useState<SuperAdminOrganization | null>(null);
  const list = usePlatformOrganizations(search, page);
  const { data, isPending, isError, isPlaceholderData, refetch } = list;
  useLastPageWhenPastEnd(list, page, onPage);
  const items = data?.items ?? [];
  const manage = (organization: SuperAdminOrganization) => (
    <Button
      variant="outline"
      size="sm"
      onClick={() => setManaging(organization)}
      aria-label={`Manage ${organization.name}`}
    >
      Manage
    </Button>
  );

  return (
    <>
      <PlatformListState
        label="organizations"
        isPending={isPending}
        isError={isError}
        hasData={Boolean(data)}
        count={items.length}
        search={search}
        emptyIcon={Building2}
        emptyTitle="No organizations yet"
        emptyHint="Organizations appear here as soon as someone creates one."
        onRetry={() => void refetch()}
      >
        <div className="hidden md:block" aria-busy={isPlaceholderData || undefined}>
          <Table aria-label="Organizations">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead className="pl-5">Organization</TableHead>
                <TableHead>Domain</TableHead>
                <TableHead>Plan</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="text-right">Members</TableHead>
                <TableHead className="text-right">Packages</TableHead>
                <TableHead>Created</TableHead>
                <TableHead className="pr-5 text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((o) => (
                <TableRow key={o.id}>
                  <TableCell className="pl-5 font-medium text-fg">{o.name}</TableCell>
                  <TableCell className="text-fg-subtle">{o.domain ?? 'N/A'}</TableCell>
                  <TableCell>{PLAN_LABELS[o.planType]}</TableCell>
                  <TableCell>
                    <StatusBadge organization={o} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{o.memberCount}</TableCell>
                  <TableCell className="text-right tabular-nums">{o.packageCount.toLocaleString()}</TableCell>
                  <TableCell className="whitespace-nowrap">{formatDate(o.createdAt)}</TableCell>
                  <TableCell className="pr-5 text-right">{manage(o)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
        <ul aria-label="Organizations" className="divide-y divide-line-subtle md:hidden">
          {items.map((o) => (
            <li key={o.id} className="flex items-start justify-between gap-3 px-4 py-3.5">
              <div className="min-w-0 space-y-1">
                <p className="font-medium break-words text-fg">{o.name}</p>
                <p className="text-xs text-fg-subtle">
                  {o.domain ?? 'N/A'} · {plural(o.memberCount, 'member')} · {plural(o.packageCount, 'package')} this
                  month
                </p>
                <div className="flex flex-wrap items-center gap-1.5">
                  <span className="text-sm text-fg-secondary">{PLAN_LABELS[o.planType]} plan</span>
                  <StatusBadge organization={o} />
                  <span className="text-xs text-fg-subtle">{formatDate(o.createdAt)}</span>
                </div>
              </div>
              {manage(o)}
            </li>
          ))}
        </ul>
      </PlatformListState>
      <Pager
        label="Organizations"
        page={page}
        pageSize={PLATFORM_PAGE_SIZE}
        total={data?.total ?? 0}
        busy={isPlaceholderData}
        onPage={onPage}
        className="px-5 pb-3"
      />
      {managing && <ManageOrganizationDialog organization={managing} onClose={() => setManaging(null)} />}
    </>
  );
}
