import type { MyOrganization, Recipient } from '@contract';
import { FileUp, Search, SearchX, UserPlus, Users, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { IconTile } from '@/components/IconTile';
import { ListState } from '@/components/ListState';
import { useListPage } from '@/lib/useListPage';
import { PageHeader } from '@/components/PageHeader';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { RecipientFormDialog } from '@/components/RecipientFormDialog';
import { Pager } from '@/components/Pager';
import { toastFailure, useErrorToast } from '@/lib/useErrorToast';
import { recipientName, useRecipients, useUpdateRecipient } from '@/lib/resources/recipients';
import { useDeleteRecipient } from '../api/deleteRecipient';
import { useDownloadPersonalData, useEraseRecipientPersonalData } from '../api/personalData';
import { useRecipientSummary } from '../api/recipientSummary';
import { useDebouncedValue } from '../hooks/useDebouncedValue';
import { ErasePersonalDataDialog } from './ErasePersonalDataDialog';
import { PickupCodeDialog } from './PickupCodeDialog';
import { ImportRecipientsDialog } from './ImportRecipientsDialog';
import { RecipientList } from './RecipientList';

export const RECIPIENTS_PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 250;

export const recipientsTitle = 'Recipients';
export const recipientsDescription = 'The guests, employees and residents who receive mail here.';

const count = new Intl.NumberFormat();

function SummaryCard({ organizationId }: { organizationId: string }) {
  const { data, isPending, error } = useRecipientSummary(organizationId);
  useErrorToast(error, 'Failed to fetch recipients');
  const inactive = data ? data.total - data.active : 0;
  return (
    <Card role="group" aria-label="Total Recipients" className="flex flex-wrap items-center gap-x-8 gap-y-3 p-4 sm:p-5">
      <div className="flex items-center gap-3">
        <IconTile icon={Users} tone="sky" className="size-10 rounded-lg" iconClassName="size-5" />
        <div>
          <p className="text-sm font-medium text-fg-subtle">Total Recipients</p>
          {isPending ? (
            <Skeleton className="mt-1 h-7 w-14" />
          ) : (
            <p data-stat-value className="text-2xl font-semibold tracking-tight text-fg">
              {data ? count.format(data.total) : '–'}
            </p>
          )}
        </div>
      </div>
      {data && (
        <dl className="flex gap-6 text-sm">
          <div className="flex items-center gap-2">
            <span aria-hidden className="size-2 rounded-full bg-emerald-500" />
            <dt className="sr-only">Active</dt>
            <dd className="text-fg-secondary">
              <span className="font-semibold text-fg">{count.format(data.active)}</span> active
            </dd>
          </div>
          <div className="flex items-center gap-2">
            <span aria-hidden className="size-2 rounded-full bg-surface-stronger" />
            <dt className="sr-only">Inactive</dt>
            <dd className="text-fg-secondary">
              <span className="font-semibold text-fg">{count.format(inactive)}</span> inactive
            </dd>
          </div>
        </dl>
      )}
    </Card>
  );
}

/** The Recipients screen for one organization: summary, search, list, add/edit, import and delete. */
export function RecipientsView({ organization }: { organization: MyOrganization }) {
  const isAdmin = organization.role === 'admin';
  const [search, setSearch] = useState('');
  const paging = useListPage(RECIPIENTS_PAGE_SIZE);
  const debouncedSearch = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);

  const list = useRecipients(organization.id, {
    search: debouncedSearch,
    limit: RECIPIENTS_PAGE_SIZE,
    offset: paging.offset,
  });
  useErrorToast(list.error, 'Failed to fetch recipients');

  const listTop = useRef<HTMLDivElement>(null);
  const goToPage = (next: number) => {
    paging.setPage(next);
    // after Next at the foot of a long page, show the new page from its first row
    const card = listTop.current;
    if (card && card.getBoundingClientRect().top < 0) card.scrollIntoView({ block: 'start' });
  };

  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Recipient | undefined>();
  const [showingCode, setShowingCode] = useState<Recipient | undefined>();
  const [importOpen, setImportOpen] = useState(false);
  const [deleting, setDeleting] = useState<Recipient | null>(null);
  const [erasing, setErasing] = useState<Recipient | null>(null);
  const update = useUpdateRecipient(organization.id);
  const remove = useDeleteRecipient(organization.id);
  const download = useDownloadPersonalData(organization.id);
  const erase = useEraseRecipientPersonalData(organization.id);

  // a delete or a narrower search can leave the page past the end: show the last page instead
  paging.keepWithin(list);

  const openAdd = () => {
    setEditing(undefined);
    setFormOpen(true);
  };

  const toggleActive = (recipient: Recipient) => {
    const isActive = !recipient.isActive;
    update.mutate(
      { id: recipient.id, changes: { isActive } },
      {
        onSuccess: (saved) =>
          toast({
            title: isActive ? 'Recipient activated' : 'Recipient deactivated',
            description: isActive
              ? `${recipientName(saved)} can receive mail again.`
              : `${recipientName(saved)} no longer appears when logging mail.`,
          }),
        onError: (err) => toastFailure('Failed to update recipient', err),
      },
    );
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast({ title: 'Recipient deleted', description: `${recipientName(deleting)} has been removed.` });
        setDeleting(null);
      },
      onError: (err) => toastFailure('Failed to delete recipient', err),
    });
  };

  const downloadPersonalData = (recipient: Recipient) => {
    download.mutate(recipient.id, {
      onSuccess: () =>
        toast({
          title: 'Personal data downloaded',
          description: `Everything held about ${recipientName(recipient)} was saved as a JSON file.`,
        }),
      onError: (err) => toastFailure('Failed to download personal data', err),
    });
  };

  const confirmErase = (recipient: Recipient) => {
    erase.mutate(recipient.id, {
      onSuccess: () => {
        toast({
          title: 'Personal data erased',
          description: `${recipientName(recipient)} now shows as “Erased recipient”; their delivery history is kept.`,
        });
        setErasing(null);
      },
      onError: (err) => toastFailure('Failed to erase personal data', err),
    });
  };

  const clearSearch = () => {
    setSearch('');
    paging.setPage(0);
  };

  const searching = debouncedSearch !== '';
  // one table for the skeleton rows and the loaded ones
  const recipientList = (recipients: Recipient[] | undefined) => (
    <RecipientList
      recipients={recipients}
      isLoading={list.isPending}
      canDelete={isAdmin}
      togglingId={update.isPending ? (update.variables?.id ?? null) : null}
      onEdit={(recipient) => {
        setEditing(recipient);
        setFormOpen(true);
      }}
      onPickupCode={setShowingCode}
      onToggleActive={toggleActive}
      onDelete={setDeleting}
      personalData={
        isAdmin
          ? {
              onDownload: downloadPersonalData,
              onErase: setErasing,
              downloadingId: download.isPending ? (download.variables ?? null) : null,
            }
          : undefined
      }
    />
  );

  const body = (
    <ListState
      data={list.data}
      isPending={list.isPending}
      isError={list.isError}
      isEmpty={(data) => data.total === 0}
      error={{ title: 'The recipients could not be loaded', retrySize: 'default', onRetry: () => void list.refetch() }}
      skeleton={recipientList(undefined)}
      empty={
        searching ? (
          <EmptyState
            icon={SearchX}
            title={`No recipients match "${debouncedSearch}"`}
            action={
              <Button variant="outline" onClick={clearSearch}>
                Clear search
              </Button>
            }
          >
            <p>Try a different name, email, unit or department.</p>
          </EmptyState>
        ) : (
          <EmptyState
            icon={Users}
            title="No recipients yet"
            className="py-16"
            action={
              <>
                <Button onClick={openAdd}>
                  <UserPlus aria-hidden /> Add Recipient
                </Button>
                {isAdmin && (
                  <Button variant="outline" onClick={() => setImportOpen(true)}>
                    <FileUp aria-hidden /> Import CSV
                  </Button>
                )}
              </>
            }
          >
            Add the guests, employees and residents who receive mail here
            {isAdmin ? ', or import them all at once from a CSV file.' : '.'}
          </EmptyState>
        )
      }
    >
      {(data) => (
        <>
          {recipientList(data.items)}
          <Pager
            label="Recipients"
            {...paging.pagerFor(list, list.isPlaceholderData)}
            onPage={goToPage}
            className="border-line px-4 pb-3"
          />
        </>
      )}
    </ListState>
  );

  return (
    <>
      <PageHeader
        title={recipientsTitle}
        description={recipientsDescription}
        actions={
          <>
            {isAdmin && (
              <Button variant="outline" onClick={() => setImportOpen(true)}>
                <FileUp aria-hidden /> Import CSV
              </Button>
            )}
            <Button onClick={openAdd}>
              <UserPlus aria-hidden /> Add Recipient
            </Button>
          </>
        }
      />
      <div className="space-y-4">
        <SummaryCard organizationId={organization.id} />
        <Card ref={listTop} className="scroll-mt-4 overflow-hidden">
          <div className="border-b border-line p-4">
            <div className="relative max-w-md">
              <Search
                aria-hidden
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-fg-faint"
              />
              <Input
                type="search"
                aria-label="Search recipients"
                placeholder="Search by name, email, unit or department"
                value={search}
                onChange={(event) => {
                  setSearch(event.target.value);
                  paging.setPage(0);
                }}
                className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
              />
              {search && (
                <button
                  type="button"
                  aria-label="Clear search"
                  onClick={clearSearch}
                  className="absolute top-1/2 right-2 -translate-y-1/2 rounded p-1 text-fg-faint hover:text-fg-secondary focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
                >
                  <X aria-hidden className="size-4" />
                </button>
              )}
            </div>
          </div>
          {body}
        </Card>
      </div>

      <RecipientFormDialog open={formOpen} onOpenChange={setFormOpen} recipient={editing} />
      <PickupCodeDialog
        organizationId={organization.id}
        recipient={showingCode}
        onOpenChange={(open) => !open && setShowingCode(undefined)}
      />
      {isAdmin && (
        <ImportRecipientsDialog organizationId={organization.id} open={importOpen} onOpenChange={setImportOpen} />
      )}
      {isAdmin && (
        <ErasePersonalDataDialog
          recipient={erasing}
          onOpenChange={(open) => !open && setErasing(null)}
          pending={erase.isPending}
          onConfirm={confirmErase}
        />
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete recipient"
        description={
          deleting
            ? `Are you sure you want to delete ${recipientName(deleting)}? This cannot be undone. To keep their history but hide them from intake, deactivate them instead.`
            : undefined
        }
        confirmLabel="Delete recipient"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </>
  );
}
