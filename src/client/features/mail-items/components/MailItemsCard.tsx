import type { MailItemSummary } from '@contract';
import type { ReactNode } from 'react';
import { ListState } from '@/components/ListState';
import { Pager } from '@/components/Pager';
import { Card, CardContent } from '@/components/ui/card';
import type { useListPage } from '@/lib/useListPage';
import type { useMailItems } from '../api/mailItems';

/**
 * A card of the desk's mail items, a page at a time (Recent Mail Items, Waiting for pickup): its
 * header, the page's rows, the pager and the dialogs the rows open. A failed load is the caller's
 * to tell (a toast; offline, the empty state), so the list shows no load error of its own.
 */
export function MailItemsCard({
  header,
  list,
  paging,
  pagerLabel,
  skeleton,
  empty,
  dialogs,
  children,
}: {
  /** The card's header: its title, and a search or an action beside it. */
  header: ReactNode;
  list: ReturnType<typeof useMailItems>;
  paging: ReturnType<typeof useListPage>;
  pagerLabel: string;
  skeleton: ReactNode;
  empty: ReactNode;
  dialogs: ReactNode;
  children: (items: MailItemSummary[]) => ReactNode;
}) {
  return (
    <Card>
      {header}
      <CardContent className="px-0 pt-3 pb-2 sm:px-0 sm:pt-4 sm:pb-2">
        <ListState data={list.data?.items} isPending={list.isPending} skeleton={skeleton} empty={empty}>
          {children}
        </ListState>
        <Pager label={pagerLabel} {...paging.pagerFor(list)} className="px-4 sm:px-6" />
      </CardContent>
      {dialogs}
    </Card>
  );
}
