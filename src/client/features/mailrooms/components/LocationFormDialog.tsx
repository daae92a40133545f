import { zodResolver } from '@hookform/resolvers/zod';
import { LOCATION_TYPES, LocationBody, type Location, type Mailroom } from '@contract';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { createOrUpdate } from '@/components/createOrUpdate';
import { FormActions } from '@/components/FormActions';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { ChoiceSelect } from '@/components/ui/choice-select';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { WholeNumberInput } from '@/components/WholeNumberInput';
import { toastFailure } from '@/lib/useErrorToast';
import { withTextInputs } from '@/lib/forms';
import { useCreateLocation } from '../api/createLocation';
import { useUpdateLocation } from '../api/updateLocation';

// The contract's schema (spec §5) with the capacity and notes typed as the text their inputs hold:
// the contract coerces the capacity and checks every field with its own messages.
const locationForm = withTextInputs(LocationBody, ['capacity', 'notes']);
const resolver = zodResolver(locationForm);

type LocationFormValues = z.input<typeof locationForm>;

interface LocationFormDialogProps {
  organizationId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mailrooms: Mailroom[];
  /** Edit this location; without it the dialog adds one. */
  location?: Location;
  /** The mailroom a new location starts in. */
  mailroomId?: string;
}

function LocationForm({
  organizationId,
  onOpenChange,
  mailrooms,
  location,
  mailroomId,
}: Omit<LocationFormDialogProps, 'open'>) {
  const prefix = useId();
  const create = useCreateLocation(organizationId);
  const update = useUpdateLocation(organizationId);
  const pending = create.isPending || update.isPending;
  const { register, handleSubmit, control, formState } = useForm({
    resolver,
    defaultValues: {
      name: location?.name ?? '',
      type: location?.type ?? 'bin',
      capacity: String(location?.capacity ?? 20),
      notes: location?.notes ?? '',
      mailroomId: location?.mailroomId ?? mailroomId ?? mailrooms[0]?.id ?? '',
    },
  });
  const { errors } = formState;
  const id = (field: keyof LocationFormValues) => `${prefix}-${field}`;
  const a11y = (field: keyof LocationFormValues) => fieldA11y(id(field), errors[field]?.message);

  const onSubmit = handleSubmit((values) =>
    createOrUpdate(location?.id, values, {
      create,
      update,
      updated: { title: 'Location updated', onError: (err) => toastFailure('Error updating location', err) },
      created: { title: 'Location added', onError: (err) => toastFailure('Error creating location', err) },
      onSaved: (saved, title) => {
        toast({ title, description: `${saved.name} in ${saved.mailroomName} has been saved.` });
        onOpenChange(false);
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormField id={id('name')} label="Location Name" error={errors.name?.message}>
        <Input {...a11y('name')} placeholder="e.g. Shelf A" autoComplete="off" {...register('name')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={id('type')} label="Location Type" error={errors.type?.message}>
          <Controller
            control={control}
            name="type"
            render={({ field }) => (
              <ChoiceSelect
                id={id('type')}
                options={LOCATION_TYPES}
                placeholder="Choose a type"
                error={errors.type?.message}
                {...field}
              />
            )}
          />
        </FormField>
        <FormField
          id={id('capacity')}
          label="Capacity"
          error={errors.capacity?.message}
          hint="How many items fit here."
        >
          <WholeNumberInput {...a11y('capacity')} min={1} {...register('capacity')} />
        </FormField>
      </div>
      <FormField id={id('mailroomId')} label="Mailroom" error={errors.mailroomId?.message}>
        <Controller
          control={control}
          name="mailroomId"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange}>
              <SelectTrigger {...a11y('mailroomId')} ref={field.ref} onBlur={field.onBlur}>
                <SelectValue placeholder="Choose a mailroom" />
              </SelectTrigger>
              <SelectContent>
                {mailrooms.map((mailroom) => (
                  <SelectItem key={mailroom.id} value={mailroom.id}>
                    {mailroom.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      </FormField>
      <FormField id={id('notes')} label="Notes" optional error={errors.notes?.message}>
        <Textarea {...a11y('notes')} rows={2} placeholder="e.g. Oversized parcels only" {...register('notes')} />
      </FormField>
      <FormActions pending={pending} onCancel={() => onOpenChange(false)} submitLabel="Save Location" />
    </form>
  );
}

export function LocationFormDialog({ open, onOpenChange, location, ...props }: LocationFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={location ? 'Edit Location' : 'Add Location'}
        description="A bin, shelf, locker or cabinet where items wait for pickup."
      >
        <LocationForm
          key={`${location?.id ?? 'new'}-${props.mailroomId ?? ''}`}
          onOpenChange={onOpenChange}
          location={location}
          {...props}
        />
      </DialogContent>
    </Dialog>
  );
}
