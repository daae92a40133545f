import {
  LONGEST_HOLD_DAYS_MAX,
  LONGEST_HOLD_DAYS_MIN,
  UpdateOrganizationSettingsBody,
  type OrganizationSettings,
} from '@contract';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { OrganizationSettingsChanges } from '@/lib/resources/organizationSettings';
import { SettingsCard } from './SettingsCard';

const daysSchema = UpdateOrganizationSettingsBody.shape.longestHoldDays.unwrap();

/**
 * The longest hold (decision 052): how many days in all a recipient may have an item held, from
 * the day they first held it; their page offers no later date. Admins edit, members read.
 */
export function LongestHoldCard({
  settings,
  isAdmin,
  saving,
  save,
}: {
  settings: OrganizationSettings;
  isAdmin: boolean;
  saving: boolean;
  save: (changes: OrganizationSettingsChanges, done: { title: string; description: string }) => void;
}) {
  const id = useId();
  const [value, setValue] = useState(String(settings.longestHoldDays));
  const [problem, setProblem] = useState<string | null>(null);
  const changed = value.trim() !== String(settings.longestHoldDays);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const number = value.trim() === '' ? Number.NaN : Number(value);
    const result = daysSchema.safeParse(number);
    if (!result.success) {
      setProblem(result.error.issues[0]?.message ?? 'Invalid value');
      return;
    }
    setProblem(null);
    save(
      { longestHoldDays: result.data },
      {
        title: 'Longest hold saved',
        description: `A recipient can have an item held for at most ${result.data} ${result.data === 1 ? 'day' : 'days'} in all.`,
      },
    );
  };

  return (
    <SettingsCard
      title="Holds"
      description="Recipients can ask the desk, on their own page, to keep an item until a date."
    >
      <form onSubmit={submit} noValidate className="space-y-1.5">
        <Label htmlFor={id}>Longest hold</Label>
        <div className="flex flex-wrap items-center gap-2">
          <Input
            id={id}
            type="number"
            inputMode="numeric"
            min={LONGEST_HOLD_DAYS_MIN}
            max={LONGEST_HOLD_DAYS_MAX}
            step={1}
            value={value}
            disabled={!isAdmin}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-note`}
            onChange={(event) => {
              setValue(event.target.value);
              setProblem(null);
            }}
            className="w-20"
          />
          <span className="text-sm text-fg-muted">days in all</span>
          {isAdmin && changed && (
            <Button type="submit" size="sm" variant="outline" disabled={saving}>
              Save
            </Button>
          )}
        </div>
        <p
          id={`${id}-note`}
          className={problem ? 'text-sm text-red-600 dark:text-red-400' : 'text-xs text-fg-subtle'}
          role={problem ? 'alert' : undefined}
        >
          {problem ??
            `Counted from the day an item is first held; renewing never goes past it. Between ${LONGEST_HOLD_DAYS_MIN} and ${LONGEST_HOLD_DAYS_MAX}.`}
        </p>
      </form>
    </SettingsCard>
  );
}
