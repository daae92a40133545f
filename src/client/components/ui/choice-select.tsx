import type { Ref } from 'react';
import { humanize } from '@/lib/format';
import { fieldA11y } from './form-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './select';

interface ChoiceSelectProps {
  /** The field id its FormField label points at. */
  id: string;
  options: readonly string[];
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error?: string;
  placeholder?: string;
  /** How an option reads; humanized (`certified_mail` → "Certified Mail") by default. */
  label?: (option: string) => string;
  ref?: Ref<HTMLButtonElement>;
}

/** A form field choosing one of a list of values; spread a react-hook-form Controller `field` into it. */
export function ChoiceSelect({
  id,
  options,
  value,
  onChange,
  onBlur,
  error,
  placeholder,
  label = humanize,
  ref,
}: ChoiceSelectProps) {
  return (
    <Select value={value} onValueChange={onChange}>
      <SelectTrigger {...fieldA11y(id, error)} ref={ref} onBlur={onBlur}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option} value={option}>
            {label(option)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
