import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import type { OrganizationFormValues } from '../organizationForms';

type OrganizationField = Exclude<keyof OrganizationFormValues, 'timezone'>;

interface OrganizationFieldsProps {
  /** Keeps element ids unique when two of these forms could be on one page. */
  idPrefix: string;
  /** The form's `register` (the create form's or the Settings form's, which adds the logo). */
  register: (field: OrganizationField) => UseFormRegisterReturn;
  errors: Partial<Record<OrganizationField, FieldError>>;
}

/** Name, address and contact fields, shared by creating and editing an organization. */
export function OrganizationFields({ idPrefix, register, errors }: OrganizationFieldsProps) {
  const id = (field: OrganizationField) => `${idPrefix}-${field}`;
  const a11y = (field: OrganizationField) => fieldA11y(id(field), errors[field]?.message);

  return (
    <div className="space-y-4">
      <FormField id={id('name')} label="Organization Name" error={errors.name?.message}>
        <Input {...a11y('name')} autoComplete="organization" placeholder="Harbor View Hotel" {...register('name')} />
      </FormField>
      <FormField id={id('address')} label="Address" optional error={errors.address?.message}>
        <Input
          {...a11y('address')}
          autoComplete="street-address"
          placeholder="1 Harbor Way, Springfield"
          {...register('address')}
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={id('contactName')} label="Contact Name" optional error={errors.contactName?.message}>
          <Input {...a11y('contactName')} autoComplete="name" {...register('contactName')} />
        </FormField>
        <FormField id={id('contactPhone')} label="Contact Phone" optional error={errors.contactPhone?.message}>
          <Input {...a11y('contactPhone')} type="tel" autoComplete="tel" {...register('contactPhone')} />
        </FormField>
      </div>
      <FormField id={id('contactEmail')} label="Contact Email" optional error={errors.contactEmail?.message}>
        <Input
          {...a11y('contactEmail')}
          type="email"
          autoComplete="email"
          placeholder="frontdesk@example.com"
          {...register('contactEmail')}
        />
      </FormField>
    </div>
  );
}
