import { useQueries } from '@tanstack/react-query';
import { PackageOpen, PackageX } from 'lucide-react';
import { useSearch } from 'wouter';
import { mailItemQuery } from '@/features/mail-items/api/mailItem';
import { PickupSlip } from '@/features/printing/components/PickupSlip';
import { PrintItems, PrintView } from '@/features/printing/components/PrintView';
import { PrintState } from '@/features/printing/components/PrintState';
import { usePrintFormat } from '@/features/printing/usePrintFormat';
import { ApiError } from '@/lib/api';
import { useCurrentOrganization } from '@/lib/currentOrganization';
import { PRINT_MAX_ITEMS } from '@/lib/printing';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ids of `items=a,b,c`: well formed, each once, in the order given, at most PRINT_MAX_ITEMS. */
function itemIds(param: string | null): string[] {
  const ids = (param ?? '')
    .split(',')
    .map((id) => id.trim().toLowerCase())
    .filter((id) => UUID.test(id));
  return [...new Set(ids)].slice(0, PRINT_MAX_ITEMS);
}

/**
 * /print/slips?org=…&items=… : a pickup slip per item, on the label roll or a sheet. Each item is
 * its own GET /api/mail-items/{id} (the call its details already make, cached with them): a page
 * of the desk's list is at most 50 items, and no new endpoint has to answer for them.
 */
export function PrintSlipsScreen() {
  const search = new URLSearchParams(useSearch());
  const { organizations, current } = useCurrentOrganization();
  const organization = organizations.find((o) => o.id === search.get('org')) ?? current;
  const ids = itemIds(search.get('items'));
  const [format, setFormat] = usePrintFormat('slips', search.get('format'));
  const results = useQueries({
    queries: ids.map((id) => ({ ...mailItemQuery(organization?.id ?? '', id), enabled: Boolean(organization) })),
  });

  const items = results.flatMap((r) => (r.data ? [r.data] : []));
  const gone = results.filter((r) => r.error instanceof ApiError && r.error.status === 404).length;
  const failed = results.filter((r) => r.isError && !(r.error instanceof ApiError && r.error.status === 404));
  const loading = results.some((r) => r.isPending && r.fetchStatus !== 'idle');
  const title =
    items.length === 1 && ids.length === 1
      ? `Pickup slip: ${items[0]!.recipient ? `${items[0]!.recipient.firstName} ${items[0]!.recipient.lastName}` : 'no recipient'}`
      : 'Pickup slips';

  let body;
  if (!organization) {
    body = <PrintState kind="failed" icon={PackageOpen} title="Please select an organization to continue." />;
  } else if (ids.length === 0) {
    body = (
      <PrintState kind="empty" icon={PackageOpen} title="No items to print">
        Choose Print pickup slip on an item in Mail Intake or Pending Pickups.
      </PrintState>
    );
  } else if (loading) {
    body = <PrintState kind="loading" label="Loading the items" />;
  } else if (failed.length > 0) {
    body = (
      <PrintState
        kind="failed"
        icon={PackageX}
        title="The items could not be loaded"
        onRetry={() => failed.forEach((r) => void r.refetch())}
      >
        Check the connection, then try again.
      </PrintState>
    );
  } else if (items.length === 0) {
    body = (
      <PrintState
        kind="empty"
        icon={PackageX}
        title={ids.length === 1 ? 'This item no longer exists' : 'These items no longer exist'}
      >
        They may have been deleted. Close this tab and choose others.
      </PrintState>
    );
  } else {
    body = (
      <PrintItems format={format}>
        {items.map((item) => (
          <PickupSlip key={item.id} item={item} organizationName={organization.name} format={format} />
        ))}
      </PrintItems>
    );
  }

  return (
    <PrintView
      kind="slips"
      title={title}
      summary={items.length === 1 ? '1 slip' : `${items.length} slips`}
      format={format}
      onFormatChange={setFormat}
      closeTo="/pending-pickups"
      ready={items.length > 0 && !loading}
      notice={
        gone > 0 &&
        items.length > 0 && (
          <p
            role="status"
            className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-300"
          >
            {gone === 1
              ? '1 item no longer exists and is left out.'
              : `${gone} items no longer exist and are left out.`}
          </p>
        )
      }
    >
      {body}
    </PrintView>
  );
}
