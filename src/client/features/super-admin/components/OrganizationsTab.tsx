import type { SuperAdminOrganization } from '@contract';
import { Building2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { formatDate } from '@/lib/format';
import { SUBSCRIPTION_STATUS_STYLES } from '@/lib/statusStyles';
import { usePlatformOrganizations } from '../api/platform';
import { useLastPageWhenPastEnd } from '../hooks/useConsoleParams';
import { ManageOrganizationDialog } from './ManageOrganizationDialog';
import { PLAN_LABELS, STATUS_LABELS } from './planLabels';
import { PlatformListState, PlatformTable, type ListPaging } from './PlatformListState';

const plural = (n: number, word: string) => `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;

function StatusBadge({ organization }: { organization: SuperAdminOrganization }) {
  return (
    <Badge tone={SUBSCRIPTION_STATUS_STYLES[organization.subscriptionStatus].tone}>
      {STATUS_LABELS[organization.subscriptionStatus]}
    </Badge>
  );
}

/** Every organization, newest first, searched and paged on the server. */
export function OrganizationsTab({ search, ...paging }: { search: string } & ListPaging) {
  const [managing, setManaging] = useState<SuperAdminOrganization | null>(null);
  const list = usePlatformOrganizations(search, paging.page);
  useLastPageWhenPastEnd(list, paging.page, paging.onPage);
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
        list={list}
        label="organizations"
        pagerLabel="Organizations"
        search={search}
        paging={paging}
        emptyIcon={Building2}
        emptyTitle="No organizations yet"
        emptyHint="Organizations appear here as soon as someone creates one."
      >
        {(items) => (
          <PlatformTable
            label="Organizations"
            items={items}
            busy={list.isPlaceholderData}
            head={
              <>
                <TableHead className="pl-5">Organization</TableHead>
                <TableHead>Domain</TableHead>
                <TableHead>Plan</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="text-right">Members</TableHead>
                <TableHead className="text-right">Packages</TableHead>
                <TableHead>Created</TableHead>
                <TableHead className="pr-5 text-right">Actions</TableHead>
              </>
            }
            row={(o) => (
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
            )}
            card={(o) => (
              <>
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
              </>
            )}
          />
        )}
      </PlatformListState>
      {managing && <ManageOrganizationDialog organization={managing} onClose={() => setManaging(null)} />}
    </>
  );
}
