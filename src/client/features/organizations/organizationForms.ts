import { CreateOrganizationBody, UpdateOrganizationBody } from '@contract';
import type { z } from 'zod';
import { withTextInputs } from '@/lib/forms';

const TEXT_FIELDS = ['address', 'contactName', 'contactEmail', 'contactPhone'] as const;

/** Creating an organization: the contract's create body, its optional fields typed as the inputs' text. */
export const createOrganizationForm = withTextInputs(CreateOrganizationBody, TEXT_FIELDS);

/**
 * Settings > Organization: the contract's update body with the name required (the body leaves every
 * field optional for API callers; this form always sends the name) and the logo address as text.
 */
export const organizationDetailsForm = withTextInputs(UpdateOrganizationBody.required({ name: true }), [
  ...TEXT_FIELDS,
  'logoUrl',
]);

/** What the name, address and contact inputs hold, in both forms. */
export type OrganizationFormValues = z.input<typeof createOrganizationForm>;
export type OrganizationDetailsValues = z.input<typeof organizationDetailsForm>;

export const emptyOrganizationForm: OrganizationFormValues = {
  name: '',
  address: '',
  contactName: '',
  contactEmail: '',
  contactPhone: '',
};
