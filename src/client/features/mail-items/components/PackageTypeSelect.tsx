import { fieldA11y } from '@/components/ui/form-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { typeLabel } from '../mailItemFormat';

interface PackageTypeSelectProps {
  id: string;
  types: readonly string[];
  value: string;
  onChange: (type: string) => void;
  onBlur: () => void;
  error?: string;
}

/** The organization's package types, as the Log and Edit dialogs offer them. */
export function PackageTypeSelect({ id, types, value, onChange, onBlur, error }: PackageTypeSelectProps) {
  return (
    <Select value={value} onValueChange={onChange}>
      <SelectTrigger {...fieldA11y(id, error)} onBlur={onBlur}>
        <SelectValue placeholder="Select a type" />
      </SelectTrigger>
      <SelectContent>
        {types.map((type) => (
          <SelectItem key={type} value={type}>
            {typeLabel(type)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
