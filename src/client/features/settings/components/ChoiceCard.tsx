import type { LucideIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';

export interface Choice<V extends string> {
  value: V;
  label: string;
  hint: string;
  icon?: LucideIcon;
  /** The choice's own language, where its label is written in it (a language's name). */
  lang?: string;
}

interface ChoiceCardProps<V extends string> {
  id: string;
  /** The radio group's name. */
  name: string;
  title: string;
  description: string;
  choices: Choice<V>[];
  value: V;
  onChange: (value: V) => void;
  disabled?: boolean;
}

/** A card of Account settings offering one of a few choices as large radio tiles (theme, language). */
export function ChoiceCard<V extends string>(props: ChoiceCardProps<V>) {
  const { id, name, title, description, choices, value: chosen, onChange, disabled } = props;
  return (
    <Card>
      <CardHeader>
        <CardTitle id={`${id}-title`}>{title}</CardTitle>
        <CardDescription id={`${id}-description`}>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <div
          role="radiogroup"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-description`}
          className="grid gap-3 sm:grid-cols-3"
        >
          {choices.map(({ value, label, hint, icon: Icon, lang }) => {
            const checked = chosen === value;
            return (
              <label
                key={value}
                className={cn(
                  'flex cursor-pointer items-center gap-3 rounded-lg border bg-surface p-3.5 transition-colors',
                  'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 has-[:focus-visible]:ring-offset-2',
                  checked
                    ? 'border-indigo-600 bg-indigo-50/50 ring-1 ring-indigo-600 dark:border-indigo-400 dark:bg-indigo-950/40 dark:ring-indigo-400'
                    : 'border-line hover:border-line-strong',
                  disabled && 'cursor-wait opacity-70',
                )}
              >
                <input
                  type="radio"
                  name={name}
                  value={value}
                  checked={checked}
                  disabled={disabled}
                  onChange={() => onChange(value)}
                  className="sr-only"
                />
                {Icon && (
                  <Icon
                    aria-hidden
                    className={cn(
                      'size-5 shrink-0',
                      checked ? 'text-indigo-600 dark:text-indigo-400' : 'text-fg-faint',
                    )}
                  />
                )}
                <span className="min-w-0">
                  <span lang={lang} className="block text-sm font-medium text-fg">
                    {label}
                  </span>
                  <span className="block text-xs text-fg-subtle">{hint}</span>
                </span>
              </label>
            );
          })}
        </div>
      </CardContent>
    </Card>
  );
}
