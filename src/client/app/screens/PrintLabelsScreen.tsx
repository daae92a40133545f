import { MapPin, Warehouse } from 'lucide-react';
import { useSearch } from 'wouter';
import { PrintItems, PrintView } from '@/features/printing/components/PrintView';
import { PrintState } from '@/features/printing/components/PrintState';
import { ShelfLabel } from '@/features/printing/components/ShelfLabel';
import { usePrintFormat } from '@/features/printing/usePrintFormat';
import { useCurrentOrganization } from '@/lib/currentOrganization';
import { useLocations } from '@/lib/resources/mailrooms';

/**
 * /print/labels?org=…&location=… (one storage location) or &mailroom=… (every active location of
 * a mailroom): shelf labels on the label roll or a sheet, outside the app's shell.
 */
export function PrintLabelsScreen() {
  const search = new URLSearchParams(useSearch());
  const { organizations, current } = useCurrentOrganization();
  // the organization the labels were asked for (another tab may have switched the current one)
  const organization = organizations.find((o) => o.id === search.get('org')) ?? current;
  const locationId = search.get('location');
  const mailroomId = search.get('mailroom');
  const [format, setFormat] = usePrintFormat('labels', search.get('format'));
  const locations = useLocations(organization?.id);

  const chosen = (locations.data ?? []).filter((location) =>
    locationId ? location.id === locationId : location.mailroomId === mailroomId && location.isActive,
  );
  const mailroomName = chosen[0]?.mailroomName;
  const title = locationId
    ? `Shelf label${chosen[0] ? `: ${chosen[0].name}` : ''}`
    : `Shelf labels${mailroomName ? `: ${mailroomName}` : ''}`;

  let body;
  if (!organization) {
    body = <PrintState kind="failed" icon={Warehouse} title="Please select an organization to continue." />;
  } else if (locations.isPending) {
    body = <PrintState kind="loading" label="Loading the storage locations" />;
  } else if (locations.isError) {
    body = (
      <PrintState
        kind="failed"
        icon={Warehouse}
        title="The storage locations could not be loaded"
        onRetry={() => void locations.refetch()}
      >
        Check the connection, then try again.
      </PrintState>
    );
  } else if (chosen.length === 0) {
    body = (
      <PrintState
        kind="empty"
        icon={MapPin}
        title={locationId ? 'This storage location no longer exists' : 'No storage locations to label'}
      >
        {locationId
          ? 'It may have been deleted. Close this tab and choose another location in Settings.'
          : 'This mailroom has no active storage locations. Add them in Settings > Mailrooms first.'}
      </PrintState>
    );
  } else {
    body = (
      <PrintItems format={format}>
        {chosen.map((location) => (
          <ShelfLabel key={location.id} location={location} organizationName={organization.name} format={format} />
        ))}
      </PrintItems>
    );
  }

  return (
    <PrintView
      kind="labels"
      title={title}
      summary={chosen.length === 1 ? '1 label' : `${chosen.length} labels`}
      format={format}
      onFormatChange={setFormat}
      closeTo="/settings"
      ready={chosen.length > 0}
    >
      {body}
    </PrintView>
  );
}
