import { Controller, type Control } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { LogMailValues } from '../mailItemForms';

/** The select's "not specified" value (a Radix select item cannot be empty); the form holds ''. */
const NO_COURIER = 'none';

interface CourierFieldProps {
  id: string;
  control: Control<LogMailValues>;
  /** The organization's courier companies. */
  couriers: readonly string[];
  /** A courier was picked by hand (detection stops overwriting it). */
  onChosen: () => void;
}

/** Log Mail's Courier Company: the organization's list, plus a detected name it does not have. */
export function CourierField({ id, control, couriers, onChosen }: CourierFieldProps) {
  const optionsWith = (current: string) => (current && !couriers.includes(current) ? [...couriers, current] : couriers);
  return (
    <FormField id={id} label="Courier Company" optional>
      <Controller
        control={control}
        name="courierCompany"
        render={({ field }) => (
          <Select
            value={field.value || NO_COURIER}
            onValueChange={(value) => {
              onChosen();
              field.onChange(value === NO_COURIER ? '' : value);
            }}
          >
            <SelectTrigger id={id} onBlur={field.onBlur}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={NO_COURIER}>Not specified</SelectItem>
              {optionsWith(field.value).map((courier) => (
                <SelectItem key={courier} value={courier}>
                  {courier}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
    </FormField>
  );
}
