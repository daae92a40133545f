import { z } from 'zod';
import { fieldErrors, type FieldErrors } from './schemaForm';

/** The shape with each named field taking a string and handing it to the contract's own rule. */
export type TextInputShape<Shape extends z.core.$ZodShape, K extends keyof Shape> = {
  [P in K]: z.ZodPipe<z.ZodString, Shape[P]>;
};

/**
 * A contract body schema as a form of text inputs. The contract's blank-to-null fields (and its
 * coerced numbers) accept any input, so zod types their input `unknown` and react-hook-form cannot
 * type the form from it. Here each named field takes the string an input holds and passes it on to
 * the contract's own rule: the form checks the contract's limits with the contract's messages, its
 * values are typed as the text they are, and it submits the contract's output, the request body.
 */
export function withTextInputs<Shape extends z.core.$ZodShape, const K extends keyof Shape & string>(
  schema: z.ZodObject<Shape>,
  fields: readonly K[],
) {
  const text: Record<string, z.ZodType> = {};
  for (const field of fields) text[field] = z.string().pipe(schema.shape[field] as z.core.$ZodType<unknown, string>);
  return schema.extend(text as TextInputShape<Shape, K>);
}

/**
 * A form kept in React state, checked by a contract schema (or one derived from it): the schema's
 * output (the request body) when the values pass, otherwise each field's first message, worded
 * as the server words it.
 */
export function checkForm<Schema extends z.ZodType, Name extends string = string>(
  schema: Schema,
  values: unknown,
): { data: z.output<Schema>; errors: null } | { data: null; errors: FieldErrors<Name> } {
  const result = schema.safeParse(values);
  return result.success
    ? { data: result.data, errors: null }
    : { data: null, errors: fieldErrors<Name>(result.error.issues) };
}
