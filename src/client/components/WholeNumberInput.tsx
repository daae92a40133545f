import type { ComponentProps } from 'react';
import { Input } from '@/components/ui/input';

/**
 * The field of a whole number between `min` and `max`: the number keypad on a phone, steps of one.
 * Its value stays the typed text (the caller checks it), so a half-edited number is not rewritten.
 */
export function WholeNumberInput(props: Omit<ComponentProps<typeof Input>, 'type' | 'inputMode' | 'step'>) {
  return <Input type="number" inputMode="numeric" step={1} {...props} />;
}
