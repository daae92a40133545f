import { zodResolver } from '@hookform/resolvers/zod';
import type { MailItem, MailItemSummary, UpdateMailItemBody } from '@contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormActions } from '@/components/FormActions';
import { Skeleton } from '@/components/ui/skeleton';
import { useOrganizationSettings } from '@/lib/resources/organizationSettings';
import { humanize } from '@/lib/format';
import { useMailItem } from '../api/mailItem';
import { packageTypes, statuses } from '../mailItemFormat';
import { editMailItemForm, type EditMailItemValues } from '../mailItemForms';
import { MailItemLoadError } from './MailItemLoadError';
import {
  DescriptionField,
  OptionSelectField,
  OptionalTextField,
  PackageTypeField,
  SenderField,
} from './MailItemFields';
import { keepDialogOpenWhileListOpen } from './RecipientCombobox';
import { RecipientField } from './RecipientField';
import { useRecipientChoice } from './useRecipientChoice';

const resolver = zodResolver(editMailItemForm);

function initialValues(item: MailItem): EditMailItemValues {
  return {
    type: item.type,
    status: item.status,
    sender: item.sender ?? '',
    trackingNumber: item.trackingNumber ?? '',
    description: item.description ?? '',
  };
}

/** Keeps `list` in order and adds `current` when the organization's list no longer has it. */
function withCurrent(list: readonly string[], current: string) {
  return list.includes(current) ? [...list] : [...list, current];
}

interface EditFormProps {
  organizationId: string;
  item: MailItem;
  pending: boolean;
  /** The change, and the item it was made from (its revision goes with it). */
  onSave: (body: UpdateMailItemBody, item: MailItem) => void;
  onCancel: () => void;
}

function EditForm({ organizationId, item: loaded, pending, onSave, onCancel }: EditFormProps) {
  // The item as the form opened on: what changed is measured against it, even if it refetches.
  const [item] = useState(loaded);
  const settings = useOrganizationSettings(organizationId);
  const ids = { type: useId(), status: useId(), recipient: useId(), sender: useId(), tracking: useId(), desc: useId() };
  const { register, control, handleSubmit, formState } = useForm({ resolver, defaultValues: initialValues(item) });
  const { errors } = formState;
  const choice = useRecipientChoice(item.recipient);
  const formRef = useRef<HTMLFormElement>(null);
  // The dialog opened on the loading skeleton, so its focus went to Close: the first field takes it.
  useEffect(() => {
    const form = formRef.current;
    const active = document.activeElement;
    if (
      form &&
      !form.contains(active) &&
      (active === document.body || form.closest('[role="dialog"]')?.contains(active))
    ) {
      document.getElementById(ids.type)?.focus();
    }
  }, [ids.type]);

  const submit = handleSubmit((values) => {
    if (choice.refuseUnpicked('Choose a recipient from the list')) return;
    // Only what changed is sent; the values are the contract's output (trimmed, blanks as null).
    const body: UpdateMailItemBody = {};
    if (values.type !== item.type) body.type = values.type;
    if (values.status !== item.status) body.status = values.status;
    for (const field of ['sender', 'trackingNumber', 'description'] as const) {
      const value = values[field] ?? null;
      if (value !== item[field]) body[field] = value;
    }
    const recipientId = choice.recipient?.id ?? null;
    if (recipientId !== item.recipientId) body.recipientId = recipientId;
    if (Object.keys(body).length === 0) {
      onCancel();
      return;
    }
    onSave(body, item);
  });

  const types = withCurrent(packageTypes(settings.data), item.type);
  // Delivered is the hand-over's alone (decision 053): Edit never offers it (an item already
  // delivered shows it as its current status, and may be moved back).
  const statusList = withCurrent(
    statuses(settings.data).filter((status) => status.toLowerCase() !== 'delivered'),
    item.status,
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <PackageTypeField id={ids.type} label="Package Type" control={control} options={types} />
        <OptionSelectField
          id={ids.status}
          label="Status"
          control={control}
          name="status"
          options={statusList.map((status) => ({ value: status, label: humanize(status) }))}
        />
      </div>
      <RecipientField id={ids.recipient} organizationId={organizationId} {...choice.field} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SenderField id={ids.sender} error={errors.sender?.message} registration={register('sender')} />
        <OptionalTextField
          id={ids.tracking}
          label="Tracking Number"
          error={errors.trackingNumber?.message}
          registration={register('trackingNumber')}
          spellCheck={false}
        />
      </div>
      <DescriptionField
        id={ids.desc}
        error={errors.description?.message}
        registration={register('description')}
        rows={3}
      />
      <FormActions pending={pending} onCancel={onCancel} submitLabel="Save Changes" />
    </form>
  );
}

/** The form's shape while the full item loads: the same fields, so nothing jumps when it arrives. */
function EditFormSkeleton() {
  const field = (key: number) => (
    <div key={key} className="space-y-2">
      <Skeleton className="h-4 w-24" />
      <Skeleton className="h-10 w-full" />
    </div>
  );
  return (
    <div aria-busy="true" className="space-y-4">
      <p className="sr-only">Loading mail item…</p>
      <div className="grid gap-4 sm:grid-cols-2">{[0, 1].map(field)}</div>
      {field(2)}
      <div className="grid gap-4 sm:grid-cols-2">{[3, 4].map(field)}</div>
      <div className="space-y-2">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="h-[84px] w-full" />
      </div>
      <div className="flex justify-end gap-2 pt-2">
        <Skeleton className="h-10 w-20" />
        <Skeleton className="h-10 w-32" />
      </div>
    </div>
  );
}

/** The list gives a summary row: the form opens on the full item, fetched afresh when Edit is chosen. */
function EditLoader({ organizationId, id, ...props }: Omit<EditFormProps, 'item'> & { id: string }) {
  const query = useMailItem(organizationId, id, true, { fresh: true });
  if (query.isError) return <MailItemLoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data || !query.isFetchedAfterMount) return <EditFormSkeleton />;
  return <EditForm organizationId={organizationId} item={query.data} {...props} />;
}

interface EditMailItemDialogProps {
  organizationId: string;
  /** The row chosen for editing; the dialog loads its full item. */
  item: MailItemSummary | null;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  onSave: (body: UpdateMailItemBody, item: MailItem) => void;
}

/** Spec §2: package type, status, recipient, sender, tracking number and an optional description. */
export function EditMailItemDialog({ organizationId, item, onOpenChange, pending, onSave }: EditMailItemDialogProps) {
  return (
    <Dialog open={item !== null} onOpenChange={(open) => !pending && onOpenChange(open)}>
      {item && (
        <DialogContent title="Edit Mail Item" className="sm:max-w-xl" onEscapeKeyDown={keepDialogOpenWhileListOpen}>
          <EditLoader
            organizationId={organizationId}
            id={item.id}
            pending={pending}
            onSave={onSave}
            onCancel={() => onOpenChange(false)}
          />
        </DialogContent>
      )}
    </Dialog>
  );
}
