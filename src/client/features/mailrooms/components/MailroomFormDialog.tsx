import { zodResolver } from '@hookform/resolvers/zod';
import { MailroomBody, type Mailroom } from '@contract';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { createOrUpdate } from '@/components/createOrUpdate';
import { FormActions } from '@/components/FormActions';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { toastFailure } from '@/lib/useErrorToast';
import { withTextInputs } from '@/lib/forms';
import { useCreateMailroom } from '../api/createMailroom';
import { useUpdateMailroom } from '../api/updateMailroom';

// The contract's schema (spec §5), the description typed as the text its input holds.
const resolver = zodResolver(withTextInputs(MailroomBody, ['description']));

interface MailroomFormDialogProps {
  organizationId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Edit this mailroom; without it the dialog adds one. */
  mailroom?: Mailroom;
}

function MailroomForm({ organizationId, mailroom, onOpenChange }: Omit<MailroomFormDialogProps, 'open'>) {
  const prefix = useId();
  const create = useCreateMailroom(organizationId);
  const update = useUpdateMailroom(organizationId);
  const pending = create.isPending || update.isPending;
  const { register, handleSubmit, formState } = useForm({
    resolver,
    defaultValues: { name: mailroom?.name ?? '', description: mailroom?.description ?? '' },
  });
  const { errors } = formState;

  const onSubmit = handleSubmit((values) =>
    createOrUpdate(mailroom?.id, values, {
      create,
      update,
      updated: { title: 'Mailroom updated', onError: (err) => toastFailure('Error updating mailroom', err) },
      created: { title: 'Mailroom added', onError: (err) => toastFailure('Error creating mailroom', err) },
      onSaved: (saved, title) => {
        toast({ title, description: `${saved.name} has been saved.` });
        onOpenChange(false);
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormField id={`${prefix}-name`} label="Mailroom Name" error={errors.name?.message}>
        <Input
          {...fieldA11y(`${prefix}-name`, errors.name?.message)}
          placeholder="e.g. Front desk"
          autoComplete="off"
          {...register('name')}
        />
      </FormField>
      <FormField id={`${prefix}-description`} label="Description" optional error={errors.description?.message}>
        <Textarea
          {...fieldA11y(`${prefix}-description`, errors.description?.message)}
          rows={3}
          placeholder="Where it is, opening hours…"
          {...register('description')}
        />
      </FormField>
      <FormActions pending={pending} onCancel={() => onOpenChange(false)} submitLabel="Save Mailroom" />
    </form>
  );
}

export function MailroomFormDialog({ organizationId, open, onOpenChange, mailroom }: MailroomFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={mailroom ? 'Edit Mailroom' : 'Add Mailroom'}
        description="A room or desk where mail is received and stored."
      >
        <MailroomForm
          key={mailroom?.id ?? 'new'}
          organizationId={organizationId}
          mailroom={mailroom}
          onOpenChange={onOpenChange}
        />
      </DialogContent>
    </Dialog>
  );
}
