import type { ComponentProps } from 'react';
import { Input } from '@/components/ui/input';

/** What a code field takes: the app's six digits, a recovery code, or either. */
type CodeKind = 'app' | 'recovery' | 'either';

const KINDS = {
  app: { inputMode: 'numeric', placeholder: '123 456', maxLength: 7 },
  recovery: { inputMode: 'text', placeholder: 'xxxx-xxxx-xxxx', maxLength: 20 },
  either: { inputMode: 'text', placeholder: '123 456', maxLength: 20 },
} as const;

/** The field of a two-factor code: one-time-code autofill, digits keypad for the app's codes. */
export function CodeInput({ kind, ...props }: ComponentProps<typeof Input> & { kind: CodeKind }) {
  return <Input autoComplete="one-time-code" className="font-mono tracking-widest" {...KINDS[kind]} {...props} />;
}
