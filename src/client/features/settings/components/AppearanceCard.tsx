import { Monitor, Moon, Sun, type LucideIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { setThemePreference, useThemePreference, type ThemePreference } from '@/lib/theme';

const CHOICES: { value: ThemePreference; label: string; hint: string; icon: LucideIcon }[] = [
  { value: 'system', label: 'System', hint: "Follows this device's setting", icon: Monitor },
  { value: 'light', label: 'Light', hint: 'Always light', icon: Sun },
  { value: 'dark', label: 'Dark', hint: 'Always dark', icon: Moon },
];

/** The colour theme of the app in this browser: the system's, or always light or dark. */
export function AppearanceCard() {
  const preference = useThemePreference();
  return (
    <Card>
      <CardHeader>
        <CardTitle id="appearance-title">Appearance</CardTitle>
        <CardDescription id="appearance-description">
          The app&apos;s colours in this browser. The landing page stays light.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div
          role="radiogroup"
          aria-labelledby="appearance-title"
          aria-describedby="appearance-description"
          className="grid gap-3 sm:grid-cols-3"
        >
          {CHOICES.map(({ value, label, hint, icon: Icon }) => {
            const checked = preference === value;
            return (
              <label
                key={value}
                className={cn(
                  'flex cursor-pointer items-center gap-3 rounded-lg border bg-surface p-3.5 transition-colors',
                  'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 has-[:focus-visible]:ring-offset-2',
                  checked
                    ? 'border-indigo-600 bg-indigo-50/50 ring-1 ring-indigo-600 dark:border-indigo-400 dark:bg-indigo-950/40 dark:ring-indigo-400'
                    : 'border-line hover:border-line-strong',
                )}
              >
                <input
                  type="radio"
                  name="theme"
                  value={value}
                  checked={checked}
                  onChange={() => setThemePreference(value)}
                  className="sr-only"
                />
                <Icon
                  aria-hidden
                  className={cn('size-5 shrink-0', checked ? 'text-indigo-600 dark:text-indigo-400' : 'text-fg-faint')}
                />
                <span className="min-w-0">
                  <span className="block text-sm font-medium text-fg">{label}</span>
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
