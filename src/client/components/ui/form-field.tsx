import type { ReactNode } from 'react';
import { Label } from './label';

interface FormFieldProps {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Rendered beside the label, e.g. a "Forgot password?" link. */
  aside?: ReactNode;
  /** Marks the field optional; a string is the word in the page's language (the recipient's page, decision 066). */
  optional?: boolean | string;
  children: ReactNode;
}

/** A label, its control, and the control's validation message. The control must carry `id`. */
export function FormField({ id, label, error, hint, aside, optional, children }: FormFieldProps) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <span>
          <Label htmlFor={id}>{label}</Label>
          {optional && (
            <span className="ml-1 text-sm text-fg-subtle">({optional === true ? 'optional' : optional})</span>
          )}
        </span>
        {aside && <span className="text-sm">{aside}</span>}
      </div>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm wrap-anywhere text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : (
        // A long URL in a hint wraps rather than widening the page on a phone.
        hint && <p className="text-xs wrap-anywhere text-fg-subtle">{hint}</p>
      )}
    </div>
  );
}

/** Props that tie an input to its FormField message. */
export function fieldA11y(id: string, error: string | undefined) {
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined };
}
