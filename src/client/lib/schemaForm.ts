import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { ZodType, output } from 'zod';
import { toast } from '@/components/ui/use-toast';

export type FieldErrors<Name extends string> = Partial<Record<Name, string>>;

/** The first message for each top-level field of a failed check. */
export function fieldErrors<Name extends string>(issues: readonly { path: PropertyKey[]; message: string }[]) {
  const errors: FieldErrors<Name> = {};
  for (const issue of issues) {
    const name = String(issue.path[0] ?? '') as Name;
    errors[name] ??= issue.message;
  }
  return errors;
}

/**
 * A form of text inputs checked by a contract schema, for the signed-out pages (decision 024).
 * The schema is loaded when the form is first focused (`preload`), not with the page: zod and
 * react-hook-form would take 40 of those pages' 100 KB. Otherwise it behaves as react-hook-form
 * does in the signed-in app: nothing is checked before the first submit, then every change
 * re-checks; a refused submit shows each field's first message and focuses the first field in
 * error; a valid one hands the schema's output (trimmed, lower-cased, ...) on.
 */
export function useSchemaForm<Schema extends ZodType, Name extends string>(
  load: () => Promise<Schema>,
  initial: Record<Name, string>,
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<Name>>({});
  const loading = useRef<Promise<Schema> | null>(null);
  const loaded = useRef<Schema | null>(null);
  const submitted = useRef(false);

  const preload = () => {
    loading.current ??= load().then(
      (schema) => (loaded.current = schema),
      (err: unknown) => {
        loading.current = null; // the next focus or submit tries again
        throw err;
      },
    );
    return loading.current;
  };

  const check = (schema: Schema, next: Record<Name, string>) => {
    const result = schema.safeParse(next);
    const found: FieldErrors<Name> = result.success ? {} : fieldErrors<Name>(result.error.issues);
    setErrors(found);
    return { result, found };
  };

  /** Sets one value as typing would (a choice made by a button rather than typed). */
  const set = (name: Name, value: string) => {
    const next = { ...values, [name]: value };
    setValues(next);
    // after a submit (which loaded the schema), each change re-checks
    if (submitted.current && loaded.current) check(loaded.current, next);
  };

  /** The props of the input (or textarea) for `name`: its name, value and change handler. */
  const field = (name: Name) => ({
    name,
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(name, event.target.value),
  });

  /** Back to the given values (the first ones unless told), unchecked, as after a form saved. */
  const reset = (next: Record<Name, string> = initial) => {
    setValues(next);
    setErrors({});
    submitted.current = false;
  };

  /** The form's submit handler: `onValid` runs with the schema's output when the values pass. */
  const submit = (onValid: (output: output<Schema>) => void) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    let schema: Schema;
    try {
      schema = await preload();
    } catch {
      toast({
        title: 'Something went wrong',
        description: 'Check your connection and try again.',
        variant: 'destructive',
      });
      return;
    }
    submitted.current = true;
    const { result, found } = check(schema, values);
    if (result.success) {
      onValid(result.data);
      return;
    }
    const firstInError = (Object.keys(initial) as Name[]).find((name) => found[name]);
    const input = firstInError && form.elements.namedItem(firstInError);
    if (input instanceof HTMLElement) input.focus();
  };

  return { values, errors, field, set, reset, preload, submit };
}
