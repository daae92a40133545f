import { zodResolver } from '@hookform/resolvers/zod';
import {
  DIRECTORY_OWNED_FIELDS,
  LANGUAGE_NAMES,
  NOTIFY_CHANNEL_LABELS,
  RECIPIENT_TYPES,
  RecipientBody,
  SUPPORTED_LANGUAGES,
  type Recipient,
} from '@contract';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { createOrUpdate } from '@/components/createOrUpdate';
import { FormActions } from '@/components/FormActions';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { ChoiceSelect } from '@/components/ui/choice-select';
import { toast } from '@/components/ui/use-toast';
import { useCurrentOrganization } from '@/lib/currentOrganization';
import { recipientName, useCreateRecipient, useUpdateRecipient } from '@/lib/resources/recipients';
import { toastFailure } from '@/lib/useErrorToast';
import { withTextInputs } from '@/lib/forms';

// The contract's schema (spec §5), its optional fields typed as the text the inputs hold: blanks
// become null and lengths are checked with the contract's messages.
// The type select always holds one (the contract defaults it to guest for API callers).
const recipientForm = withTextInputs(RecipientBody.required({ recipientType: true }), [
  'email',
  'phone',
  'unit',
  'department',
]);
const resolver = zodResolver(recipientForm);

type RecipientFormValues = z.input<typeof recipientForm>;

/** The recipient's own choice on their page (decisions 032, 065), in the words that page uses. */
const notifiedBy = (channels: Recipient['notifyChannels']) =>
  channels ? channels.map((c) => NOTIFY_CHANNEL_LABELS[c]).join(', ') : 'Every channel offered';

/**
 * How the recipient is told of arrivals: theirs to choose on their own page, so the desk sees it
 * and cannot change it here (a clerk overriding it would message someone who asked not to be).
 */
function NotifiedBy({ channels }: { channels: Recipient['notifyChannels'] }) {
  return (
    <div className="rounded-md border border-line-subtle bg-surface-subtle px-3 py-2 text-sm">
      <p className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="text-fg-subtle">Notified by</span>
        <span className="font-medium text-fg" data-testid="notified-by">
          {notifiedBy(channels)}
        </span>
      </p>
      <p className="mt-0.5 text-xs text-fg-subtle">The recipient chooses this on their own page.</p>
    </div>
  );
}

function formValues(recipient?: Recipient): RecipientFormValues {
  return {
    firstName: recipient?.firstName ?? '',
    lastName: recipient?.lastName ?? '',
    email: recipient?.email ?? '',
    phone: recipient?.phone ?? '',
    unit: recipient?.unit ?? '',
    department: recipient?.department ?? '',
    recipientType: recipient?.recipientType ?? 'guest',
    // '' is "the organization's default" (decision 066): the contract reads it as null.
    language: recipient?.language ?? '',
  };
}

export interface RecipientFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Edit this recipient; without it the dialog adds a new one. */
  recipient?: Recipient;
  /** Called with the saved recipient (the created one, with its id, when adding). */
  onSaved?: (recipient: Recipient) => void;
  /**
   * Opened from the intake dialog's Add Recipient shortcut: a failure then reads
   * 'Add Failed' / 'Failed to add recipient' instead of 'Failed to create recipient' (spec §8).
   */
  shortcut?: boolean;
}

interface RecipientFormProps extends Omit<RecipientFormDialogProps, 'open'> {
  organizationId: string;
}

function RecipientForm({ organizationId, recipient, onSaved, onOpenChange, shortcut }: RecipientFormProps) {
  const prefix = useId();
  const create = useCreateRecipient(organizationId);
  const update = useUpdateRecipient(organizationId);
  const pending = create.isPending || update.isPending;
  const { register, handleSubmit, control, formState } = useForm({ resolver, defaultValues: formValues(recipient) });
  const { errors } = formState;

  const id = (field: keyof RecipientFormValues) => `${prefix}-${field}`;
  // A directory's recipient (decision 060): the fields it owns are read-only here (the server
  // refuses their change with 409 managed_by_directory); the type stays the desk's.
  const managed = Boolean(recipient?.managedBy);
  const owned = (field: keyof RecipientFormValues) =>
    managed && (DIRECTORY_OWNED_FIELDS as readonly string[]).includes(field)
      ? {
          readOnly: true,
          'aria-readonly': true,
          className: 'bg-surface-muted text-fg-muted',
          'aria-describedby': `${prefix}-managed`,
        }
      : {};
  const a11y = (field: keyof RecipientFormValues) => {
    const base = fieldA11y(id(field), errors[field]?.message);
    const extra = owned(field);
    const describedBy = [base['aria-describedby'], extra['aria-describedby']].filter(Boolean).join(' ') || undefined;
    return { ...base, ...extra, 'aria-describedby': describedBy };
  };

  const saved = (result: Recipient, title: string) => {
    toast({ title, description: `${recipientName(result)} has been saved.` });
    onOpenChange(false);
    onSaved?.(result);
  };

  const onSubmit = handleSubmit((values) =>
    createOrUpdate(recipient?.id, values, {
      create,
      update,
      updated: { title: 'Recipient updated', onError: (err) => toastFailure('Failed to update recipient', err) },
      created: {
        title: 'Recipient added',
        onError: (err) =>
          shortcut
            ? toastFailure('Add Failed', err, 'Failed to add recipient')
            : toastFailure('Failed to create recipient', err),
      },
      onSaved: saved,
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {managed && (
        <p
          id={`${prefix}-managed`}
          className="rounded-md border border-indigo-200 dark:border-indigo-800 bg-indigo-50 dark:bg-indigo-950/40 px-3 py-2 text-sm text-indigo-800 dark:text-indigo-200"
        >
          {recipient?.managedBy === 'scim'
            ? "Kept by your organization's directory (SCIM provisioning)"
            : 'Kept by the scheduled roster import'}
          : their name, email, phone, unit and department change there, and the next sync brings them here. The
          recipient type is yours to set.
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={id('firstName')} label="First Name" error={errors.firstName?.message}>
          <Input {...a11y('firstName')} autoComplete="off" {...register('firstName')} />
        </FormField>
        <FormField id={id('lastName')} label="Last Name" error={errors.lastName?.message}>
          <Input {...a11y('lastName')} autoComplete="off" {...register('lastName')} />
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={id('email')} label="Email" optional error={errors.email?.message}>
          <Input {...a11y('email')} type="email" autoComplete="off" {...register('email')} />
        </FormField>
        <FormField id={id('phone')} label="Phone" optional error={errors.phone?.message}>
          <Input {...a11y('phone')} type="tel" autoComplete="off" {...register('phone')} />
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={id('unit')} label="Unit" optional error={errors.unit?.message}>
          <Input {...a11y('unit')} placeholder="e.g. 4B or Room 212" autoComplete="off" {...register('unit')} />
        </FormField>
        <FormField id={id('department')} label="Department" optional error={errors.department?.message}>
          <Input {...a11y('department')} autoComplete="off" {...register('department')} />
        </FormField>
      </div>
      <FormField id={id('recipientType')} label="Recipient Type" error={errors.recipientType?.message}>
        <Controller
          control={control}
          name="recipientType"
          render={({ field }) => (
            <ChoiceSelect
              id={id('recipientType')}
              options={RECIPIENT_TYPES}
              error={errors.recipientType?.message}
              {...field}
            />
          )}
        />
      </FormField>
      <FormField
        id={id('language')}
        label="Language"
        optional
        hint="Their messages and their own page. They can change it on their page."
        error={errors.language?.message}
      >
        <select
          {...a11y('language')}
          {...register('language')}
          className="h-9 w-full rounded-md border border-line bg-surface px-3 text-sm text-fg"
        >
          <option value="">The organization's default</option>
          {SUPPORTED_LANGUAGES.map((code) => (
            <option key={code} value={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      </FormField>
      {recipient && <NotifiedBy channels={recipient.notifyChannels} />}
      <FormActions pending={pending} onCancel={() => onOpenChange(false)} submitLabel="Save Recipient" />
    </form>
  );
}

/** Adds or edits a recipient; members and admins may do both. */
export function RecipientFormDialog({ open, onOpenChange, recipient, onSaved, shortcut }: RecipientFormDialogProps) {
  const { current } = useCurrentOrganization();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={recipient ? 'Edit Recipient' : 'Add New Recipient'}
        description={
          recipient
            ? 'Update their contact details, location or type.'
            : 'Someone who receives mail here: a guest, an employee or a resident.'
        }
      >
        {current && (
          <RecipientForm
            key={recipient?.id ?? 'new'}
            organizationId={current.id}
            recipient={recipient}
            onSaved={onSaved}
            onOpenChange={onOpenChange}
            shortcut={shortcut}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
