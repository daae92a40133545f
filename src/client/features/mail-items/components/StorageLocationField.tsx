import type { Control } from 'react-hook-form';
import { SelectItem } from '@/components/ui/select';
import { useLocations, useMailrooms } from '@/lib/resources/mailrooms';
import { NO_STORAGE, storageOptions } from '../mailItemFormat';
import type { LogMailValues } from '../mailItemForms';
import { OptionSelectField } from './MailItemFields';

interface StorageLocationFieldProps {
  id: string;
  organizationId: string;
  control: Control<LogMailValues>;
}

/** Log Mail's Storage Location: a whole active mailroom or one of its active locations, or none. */
export function StorageLocationField({ id, organizationId, control }: StorageLocationFieldProps) {
  const mailrooms = useMailrooms(organizationId);
  const locations = useLocations(organizationId);
  return (
    <OptionSelectField
      id={id}
      label="Storage Location"
      optional
      control={control}
      name="storage"
      options={storageOptions(mailrooms.data, locations.data)}
      placeholder="Choose where it is kept"
      leading={<SelectItem value={NO_STORAGE}>No storage location</SelectItem>}
    />
  );
}
