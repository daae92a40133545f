import { UpdateOrganizationSettingsBody, type OrganizationSettings } from '@contract';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { WholeNumberInput } from '@/components/WholeNumberInput';
import type { OrganizationSettingsChanges } from '@/lib/resources/organizationSettings';
import { SettingsCard } from './SettingsCard';

/** The organization's settings that are one whole number, checked by the contract's own schema. */
export type NumberSettingKey = 'labelMatchThreshold' | 'longestHoldDays';

/**
 * One whole-number setting in its own card: admins edit and save it, members read it. The value is
 * checked against the contract's schema for that field, so the card says what the server would.
 */
export function NumberSettingCard({
  field,
  settings,
  isAdmin,
  saving,
  save,
  title,
  description,
  label,
  unit,
  min,
  max,
  note,
  saved,
}: {
  field: NumberSettingKey;
  settings: OrganizationSettings;
  isAdmin: boolean;
  saving: boolean;
  save: (changes: OrganizationSettingsChanges, done: { title: string; description: string }) => void;
  title: string;
  description: string;
  label: string;
  /** Beside the input: "% confidence", "days in all". */
  unit: string;
  min: number;
  max: number;
  /** Under the input while nothing is wrong. */
  note: string;
  /** The toast after a save. */
  saved: (value: number) => { title: string; description: string };
}) {
  const id = useId();
  const current = String(settings[field]);
  const [value, setValue] = useState(current);
  const [problem, setProblem] = useState<string | null>(null);
  const changed = value.trim() !== current;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const number = value.trim() === '' ? Number.NaN : Number(value);
    const result = UpdateOrganizationSettingsBody.shape[field].unwrap().safeParse(number);
    if (!result.success) {
      setProblem(result.error.issues[0]?.message ?? 'Invalid value');
      return;
    }
    setProblem(null);
    save({ [field]: result.data }, saved(result.data));
  };

  return (
    <SettingsCard title={title} description={description}>
      <form onSubmit={submit} noValidate className="space-y-1.5">
        <Label htmlFor={id}>{label}</Label>
        <div className="flex flex-wrap items-center gap-2">
          <WholeNumberInput
            id={id}
            min={min}
            max={max}
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
          <span className="text-sm text-fg-muted">{unit}</span>
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
          {problem ?? note}
        </p>
      </form>
    </SettingsCard>
  );
}
