import { MAILROOM_NOT_EMPTY, type Location, type Mailroom } from '@contract';
import { Info, MapPin, Pencil, Plus, Printer, Trash2, Warehouse } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { IconTile } from '@/components/IconTile';
import { RowIconButton } from '@/components/RowIconButton';
import { ListState } from '@/components/ListState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { cn } from '@/lib/cn';
import { humanize } from '@/lib/format';
import { openPrintView, printLabelsPath } from '@/lib/printing';
import { toastFailure, useErrorToast } from '@/lib/useErrorToast';
import { useLocations, useMailrooms } from '@/lib/resources/mailrooms';
import { toastDeleteLocationFailure, useDeleteLocation } from '../api/deleteLocation';
import { useDeleteMailroom } from '../api/deleteMailroom';
import { locationTypeIcons } from '../locationTypes';
import { LocationFormDialog } from './LocationFormDialog';
import { MailroomFormDialog } from './MailroomFormDialog';

const MAILROOM_NOT_EMPTY_HINT = 'Delete or move its storage locations, and hand over or move its mail, first.';

/** "Edit Lobby" for screen readers, "Edit" in the tooltip. */
function IconAction(props: { label: string; icon: typeof Pencil; onClick: () => void; danger?: boolean }) {
  return <RowIconButton {...props} tooltip={props.label.split(' ')[0]} />;
}

function Occupancy({ location }: { location: Location }) {
  const ratio = location.capacity > 0 ? Math.min(1, location.currentCount / location.capacity) : 1;
  const tone = location.isFull ? 'bg-red-500' : ratio >= 0.75 ? 'bg-amber-500' : 'bg-emerald-500';
  return (
    <div className="mt-2 flex items-center gap-2 sm:mt-0">
      <div
        role="meter"
        aria-label={`${location.name} occupancy`}
        aria-valuemin={0}
        aria-valuemax={location.capacity}
        aria-valuenow={location.currentCount}
        aria-valuetext={`${location.currentCount} of ${location.capacity}`}
        className="h-1.5 w-20 overflow-hidden rounded-full bg-surface-muted"
      >
        <div className={cn('h-full rounded-full', tone)} style={{ width: `${ratio * 100}%` }} />
      </div>
      <span className="text-sm text-fg-secondary tabular-nums">
        {location.currentCount} / {location.capacity}
      </span>
      {location.isFull && (
        <Badge className="border-red-200 dark:border-red-800 bg-red-50 dark:bg-red-950/40 text-red-700 dark:text-red-300">
          Full
        </Badge>
      )}
    </div>
  );
}

interface LocationRowProps {
  location: Location;
  isAdmin: boolean;
  onEdit: (location: Location) => void;
  onDelete: (location: Location) => void;
  onPrint: (location: Location) => void;
}

function LocationRow({ location, isAdmin, onEdit, onDelete, onPrint }: LocationRowProps) {
  const Icon = locationTypeIcons[location.type];
  return (
    <li className="flex items-start gap-3 px-4 py-3 sm:items-center sm:gap-4 sm:px-5">
      <IconTile icon={Icon} tone="muted" className="size-9 rounded-lg" iconClassName="size-4" />
      <div className="min-w-0 flex-1 sm:flex sm:items-center sm:gap-4">
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-fg">
            {location.name}
            {!location.isActive && <span className="ml-2 text-xs font-normal text-fg-subtle">(inactive)</span>}
          </p>
          <p className="truncate text-xs text-fg-subtle">
            {humanize(location.type)}
            {location.notes && ` · ${location.notes}`}
          </p>
        </div>
        <Occupancy location={location} />
      </div>
      <div className="flex shrink-0 gap-1">
        {/* a label is printed by whoever stocks the shelves: members too */}
        <RowIconButton
          label={`Print shelf label for ${location.name}`}
          tooltip="Print shelf label"
          icon={Printer}
          onClick={() => onPrint(location)}
        />
        {isAdmin && (
          <>
            <IconAction label={`Edit ${location.name}`} icon={Pencil} onClick={() => onEdit(location)} />
            <IconAction label={`Delete ${location.name}`} icon={Trash2} onClick={() => onDelete(location)} danger />
          </>
        )}
      </div>
    </li>
  );
}

interface MailroomCardProps {
  mailroom: Mailroom;
  locations: Location[] | undefined;
  locationsLoading: boolean;
  isAdmin: boolean;
  onEdit: (mailroom: Mailroom) => void;
  onDelete: (mailroom: Mailroom) => void;
  onAddLocation: (mailroom: Mailroom) => void;
  onEditLocation: (location: Location) => void;
  onDeleteLocation: (location: Location) => void;
  onPrintLocation: (location: Location) => void;
  onPrintMailroom: (mailroom: Mailroom) => void;
}

function MailroomCard({
  mailroom,
  locations,
  locationsLoading,
  isAdmin,
  onEdit,
  onDelete,
  onAddLocation,
  onEditLocation,
  onDeleteLocation,
  onPrintLocation,
  onPrintMailroom,
}: MailroomCardProps) {
  const printable = (locations ?? []).some((location) => location.isActive);
  const headingId = `mailroom-${mailroom.id}`;
  return (
    <Card role="region" aria-labelledby={headingId} className="overflow-hidden">
      <div className="flex flex-wrap items-start gap-3 border-b border-line p-4 sm:p-5">
        <IconTile icon={Warehouse} tone="indigo" className="size-10 rounded-lg" iconClassName="size-5" />
        <div className="min-w-0 flex-1 basis-48">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={headingId} className="text-base font-semibold text-fg">
              {mailroom.name}
            </h3>
            {!mailroom.isActive && <Badge>Inactive</Badge>}
          </div>
          {mailroom.description && <p className="mt-0.5 text-sm text-fg-subtle">{mailroom.description}</p>}
          <p className="mt-1 text-xs text-fg-subtle">
            {mailroom.locationCount === 1 ? '1 storage location' : `${mailroom.locationCount} storage locations`}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-1">
          {printable && (
            <Button
              variant="outline"
              size="sm"
              onClick={() => onPrintMailroom(mailroom)}
              className="mr-1"
              aria-label={`Print shelf labels for ${mailroom.name}`}
            >
              <Printer aria-hidden /> Print labels
            </Button>
          )}
          {isAdmin && (
            <>
              <Button variant="outline" size="sm" onClick={() => onAddLocation(mailroom)} className="mr-1">
                <Plus aria-hidden /> Add Location
              </Button>
              <IconAction label={`Edit ${mailroom.name}`} icon={Pencil} onClick={() => onEdit(mailroom)} />
              <IconAction label={`Delete ${mailroom.name}`} icon={Trash2} onClick={() => onDelete(mailroom)} danger />
            </>
          )}
        </div>
      </div>
      <ListState
        data={locations}
        isPending={locationsLoading}
        skeleton={
          <SkeletonRows
            label={`Loading the storage locations of ${mailroom.name}`}
            className="space-y-3 p-5"
            row={() => <Skeleton className="h-9 w-full" />}
          />
        }
        empty={
          <EmptyState icon={MapPin} title="No storage locations yet" className="py-6">
            {isAdmin
              ? 'Use Add Location for the bins, shelves, lockers and cabinets where items wait.'
              : 'An admin of this organization can add the bins, shelves, lockers and cabinets where items wait.'}
          </EmptyState>
        }
      >
        {(locations) => (
          <ul aria-label={`Storage locations in ${mailroom.name}`} className="divide-y divide-line-subtle">
            {locations.map((location) => (
              <LocationRow
                key={location.id}
                location={location}
                isAdmin={isAdmin}
                onEdit={onEditLocation}
                onDelete={onDeleteLocation}
                onPrint={onPrintLocation}
              />
            ))}
          </ul>
        )}
      </ListState>
    </Card>
  );
}

/** Settings > Mailrooms: admins manage mailrooms and their storage locations; members see them. */
export function MailroomsPane({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const mailrooms = useMailrooms(organizationId);
  const locations = useLocations(organizationId);
  useErrorToast(mailrooms.error, 'Failed to fetch mailrooms');
  useErrorToast(locations.error, 'Failed to fetch locations');
  const deleteMailroom = useDeleteMailroom(organizationId);
  const deleteLocation = useDeleteLocation(organizationId);

  const [mailroomForm, setMailroomForm] = useState<{ open: boolean; mailroom?: Mailroom }>({ open: false });
  const [locationForm, setLocationForm] = useState<{ open: boolean; location?: Location; mailroomId?: string }>({
    open: false,
  });
  const [deletingMailroom, setDeletingMailroom] = useState<Mailroom | null>(null);
  const [deletingLocation, setDeletingLocation] = useState<Location | null>(null);

  const byMailroom = new Map<string, Location[]>();
  for (const location of locations.data ?? []) {
    byMailroom.set(location.mailroomId, [...(byMailroom.get(location.mailroomId) ?? []), location]);
  }

  const confirmDeleteMailroom = () => {
    if (!deletingMailroom) return;
    deleteMailroom.mutate(deletingMailroom.id, {
      onSuccess: () => {
        toast({ title: 'Mailroom deleted', description: `${deletingMailroom.name} has been removed.` });
        setDeletingMailroom(null);
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status === 409) {
          toast({ title: 'Error deleting mailroom', description: MAILROOM_NOT_EMPTY_HINT, variant: 'destructive' });
        } else {
          toastFailure('Error deleting mailroom', err);
        }
        setDeletingMailroom(null);
      },
    });
  };

  const confirmDeleteLocation = () => {
    if (!deletingLocation) return;
    deleteLocation.mutate(deletingLocation.id, {
      onSuccess: () => {
        toast({ title: 'Location deleted', description: `${deletingLocation.name} has been removed.` });
        setDeletingLocation(null);
      },
      onError: (err) => {
        toastDeleteLocationFailure(err);
        setDeletingLocation(null);
      },
    });
  };

  const mailroomBlocked = deletingMailroom !== null && deletingMailroom.locationCount > 0;

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h2 className="text-base font-semibold text-fg">Mailrooms and storage</h2>
          <p className="text-sm text-fg-subtle">
            Where mail is received, and the locations where items wait for pickup.
          </p>
        </div>
        {isAdmin && (
          <Button onClick={() => setMailroomForm({ open: true })} className="self-start sm:self-auto">
            <Plus aria-hidden /> Add Mailroom
          </Button>
        )}
      </div>
      {!isAdmin && (
        <p className="flex items-start gap-2 rounded-lg border border-sky-200 dark:border-sky-800 bg-sky-50 dark:bg-sky-950/40 px-3 py-2 text-sm text-sky-800 dark:text-sky-300">
          <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
          Only admins can change mailrooms and storage locations.
        </p>
      )}

      <ListState
        data={mailrooms.data}
        isPending={mailrooms.isPending}
        isError={mailrooms.isError}
        frame={(state) => <Card>{state}</Card>}
        error={{
          icon: Warehouse,
          title: 'The mailrooms could not be loaded',
          retrySize: 'default',
          onRetry: () => void mailrooms.refetch(),
        }}
        skeleton={
          <Card className="p-5">
            <Skeleton className="mb-3 h-10 w-1/2" />
            <SkeletonRows
              label="Loading mailrooms"
              className="space-y-3"
              row={() => <Skeleton className="h-9 w-full" />}
            />
          </Card>
        }
        empty={
          <EmptyState
            icon={Warehouse}
            title="No mailrooms yet"
            action={
              isAdmin && (
                <Button onClick={() => setMailroomForm({ open: true })}>
                  <Plus aria-hidden /> Add Mailroom
                </Button>
              )
            }
          >
            {isAdmin
              ? 'Add the rooms or desks where mail arrives, then the bins, shelves and lockers inside them.'
              : 'An admin of this organization can set up mailrooms and storage locations.'}
          </EmptyState>
        }
      >
        {(rooms) =>
          rooms.map((mailroom) => (
            <MailroomCard
              key={mailroom.id}
              mailroom={mailroom}
              locations={byMailroom.get(mailroom.id)}
              locationsLoading={locations.isPending}
              isAdmin={isAdmin}
              onEdit={(m) => setMailroomForm({ open: true, mailroom: m })}
              onDelete={setDeletingMailroom}
              onAddLocation={(m) => setLocationForm({ open: true, mailroomId: m.id })}
              onEditLocation={(location) => setLocationForm({ open: true, location })}
              onDeleteLocation={setDeletingLocation}
              onPrintLocation={(location) =>
                openPrintView(printLabelsPath(organizationId, { locationId: location.id }))
              }
              onPrintMailroom={(m) => openPrintView(printLabelsPath(organizationId, { mailroomId: m.id }))}
            />
          ))
        }
      </ListState>

      {isAdmin && (
        <>
          <MailroomFormDialog
            organizationId={organizationId}
            open={mailroomForm.open}
            onOpenChange={(open) => setMailroomForm((state) => ({ ...state, open }))}
            mailroom={mailroomForm.mailroom}
          />
          <LocationFormDialog
            organizationId={organizationId}
            open={locationForm.open}
            onOpenChange={(open) => setLocationForm((state) => ({ ...state, open }))}
            mailrooms={mailrooms.data ?? []}
            location={locationForm.location}
            mailroomId={locationForm.mailroomId}
          />
          <Dialog open={mailroomBlocked} onOpenChange={(open) => !open && setDeletingMailroom(null)}>
            <DialogContent
              title={MAILROOM_NOT_EMPTY}
              description={
                deletingMailroom
                  ? `${deletingMailroom.name} still has storage locations. ${MAILROOM_NOT_EMPTY_HINT}`
                  : undefined
              }
            >
              <div className="flex justify-end">
                <Button onClick={() => setDeletingMailroom(null)}>OK</Button>
              </div>
            </DialogContent>
          </Dialog>
          <ConfirmDialog
            open={deletingMailroom !== null && !mailroomBlocked}
            onOpenChange={(open) => !open && setDeletingMailroom(null)}
            title="Delete mailroom"
            description={deletingMailroom ? `Are you sure you want to delete ${deletingMailroom.name}?` : undefined}
            confirmLabel="Delete mailroom"
            pendingLabel="Deleting…"
            pending={deleteMailroom.isPending}
            onConfirm={confirmDeleteMailroom}
          />
          <ConfirmDialog
            open={deletingLocation !== null}
            onOpenChange={(open) => !open && setDeletingLocation(null)}
            title="Delete storage location"
            description={
              deletingLocation
                ? `Are you sure you want to delete ${deletingLocation.name} from ${deletingLocation.mailroomName}?`
                : undefined
            }
            confirmLabel="Delete location"
            pendingLabel="Deleting…"
            pending={deleteLocation.isPending}
            onConfirm={confirmDeleteLocation}
          />
        </>
      )}
    </div>
  );
}
