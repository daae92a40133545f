import type { ReactNode } from 'react';
import { Controller, type Control, type FieldValues, type Path, type UseFormRegisterReturn } from 'react-hook-form';
import { ChoiceSelect } from '@/components/ui/choice-select';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { typeLabel } from '../mailItemFormat';

/** The fields Log Mail and Edit Mail Item share; each form keeps its own rules and state. */

interface PackageTypeFieldProps<V extends FieldValues, C, T> {
  id: string;
  /** "Type" on Log Mail, "Package Type" on Edit. */
  label: string;
  control: Control<V, C, T>;
  /** The organization's package types (Edit adds the item's own when the list no longer has it). */
  options: readonly string[];
  /** After a type is picked (Log Mail clears the field's message). */
  onPicked?: () => void;
}

/** Package Type: one of the organization's types, chosen from a list; its message is the form's. */
export function PackageTypeField<V extends FieldValues, C, T>({
  id,
  label,
  control,
  options,
  onPicked,
}: PackageTypeFieldProps<V, C, T>) {
  return (
    <Controller
      control={control}
      name={'type' as Path<V>}
      render={({ field, fieldState }) => (
        <FormField id={id} label={label} error={fieldState.error?.message}>
          <ChoiceSelect
            id={id}
            options={options}
            label={typeLabel}
            placeholder="Select a type"
            error={fieldState.error?.message}
            {...field}
            onChange={(value: string) => {
              field.onChange(value);
              onPicked?.();
            }}
          />
        </FormField>
      )}
    />
  );
}

interface OptionSelectFieldProps<V extends FieldValues, C, T> {
  id: string;
  label: string;
  optional?: boolean;
  control: Control<V, C, T>;
  name: Path<V>;
  options: readonly { value: string; label: string }[];
  placeholder?: string;
  /** An item drawn before the options ("No storage location"). */
  leading?: ReactNode;
}

/** A select's items, one an option (Edit's Status, Log Mail's Storage Location, History's filters). */
export function OptionItems({ options }: { options: readonly { value: string; label: string }[] }) {
  return options.map((option) => (
    <SelectItem key={option.value} value={option.value}>
      {option.label}
    </SelectItem>
  ));
}

/** A field choosing one value from a list: Edit's Status, Log Mail's Storage Location; its message is the form's. */
export function OptionSelectField<V extends FieldValues, C, T>({
  id,
  label,
  optional,
  control,
  name,
  options,
  placeholder,
  leading,
}: OptionSelectFieldProps<V, C, T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <FormField id={id} label={label} optional={optional} error={fieldState.error?.message}>
          <Select value={field.value as string} onValueChange={field.onChange}>
            <SelectTrigger id={id} onBlur={field.onBlur}>
              <SelectValue placeholder={placeholder} />
            </SelectTrigger>
            <SelectContent>
              {leading}
              <OptionItems options={options} />
            </SelectContent>
          </Select>
        </FormField>
      )}
    />
  );
}

interface OptionalTextFieldProps {
  id: string;
  label: string;
  error?: string;
  /** What react-hook-form's `register` gave for the field. */
  registration: UseFormRegisterReturn;
  maxLength?: number;
  spellCheck?: boolean;
  /** A text area of this many rows instead of a one-line input. */
  rows?: number;
}

/** An optional text field of a mail item: Sender, Tracking Number, Description, Received by. */
export function OptionalTextField({
  id,
  label,
  error,
  registration,
  maxLength = 255,
  spellCheck,
  rows,
}: OptionalTextFieldProps) {
  return (
    <FormField id={id} label={label} optional error={error}>
      {rows ? (
        <Textarea {...fieldA11y(id, error)} maxLength={maxLength} rows={rows} {...registration} />
      ) : (
        <Input
          {...fieldA11y(id, error)}
          maxLength={maxLength}
          autoComplete="off"
          spellCheck={spellCheck}
          {...registration}
        />
      )}
    </FormField>
  );
}

type NamedTextFieldProps = Omit<OptionalTextFieldProps, 'label' | 'maxLength'>;

/** Sender: who sent the item (Log Mail and Edit). */
export function SenderField(props: NamedTextFieldProps) {
  return <OptionalTextField label="Sender" {...props} />;
}

/** Description: a longer note on the item (one line on Log Mail, a text area on Edit). */
export function DescriptionField(props: NamedTextFieldProps) {
  return <OptionalTextField label="Description" maxLength={2000} {...props} />;
}
