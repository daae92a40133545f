import { zodResolver } from '@hookform/resolvers/zod';
import { CreateOrganizationBody, UpdateOrganizationBody } from '@contract';
import type { FieldErrors, Resolver, UseFormRegister } from 'react-hook-form';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';

export interface OrganizationFormValues {
  name: string;
  address: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  /** Only the Settings form edits the logo (OrganizationLogoField). */
  logoUrl?: string;
}

export const emptyOrganizationForm: OrganizationFormValues = {
  name: '',
  address: '',
  contactName: '',
  contactEmail: '',
  contactPhone: '',
};

// The form holds plain strings; the contract types its blank-to-null inputs as unknown.
export const createOrganizationResolver = zodResolver(CreateOrganizationBody) as unknown as Resolver<
  OrganizationFormValues,
  unknown,
  CreateOrganizationBody
>;
export const updateOrganizationResolver = zodResolver(UpdateOrganizationBody) as unknown as Resolver<
  OrganizationFormValues,
  unknown,
  UpdateOrganizationBody
>;

interface OrganizationFieldsProps {
  /** Keeps element ids unique when two of these forms could be on one page. */
  idPrefix: string;
  register: UseFormRegister<OrganizationFormValues>;
  errors: FieldErrors<OrganizationFormValues>;
}

/** Name, address and contact fields, shared by creating and editing an organization. */
export function OrganizationFields({ idPrefix, register, errors }: OrganizationFieldsProps) {
  const id = (field: keyof OrganizationFormValues) => `${idPrefix}-${field}`;
  const a11y = (field: keyof OrganizationFormValues) => fieldA11y(id(field), errors[field]?.message);

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
