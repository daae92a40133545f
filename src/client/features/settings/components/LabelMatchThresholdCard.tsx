import {
  LABEL_MATCH_THRESHOLD_MAX,
  LABEL_MATCH_THRESHOLD_MIN,
  UpdateOrganizationSettingsBody,
  type OrganizationSettings,
} from '@contract';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { OrganizationSettingsChanges } from '@/lib/resources/organizationSettings';
import { SettingsCard } from './SettingsCard';

const thresholdSchema = UpdateOrganizationSettingsBody.shape.labelMatchThreshold.unwrap();

/**
 * Label reading (issue 28): how sure the match of a label's addressee must be to fill in the
 * recipient by itself; below it the clerk picks from the candidates. Admins edit, members read.
 */
export function LabelMatchThresholdCard({
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
  const [value, setValue] = useState(String(settings.labelMatchThreshold));
  const [problem, setProblem] = useState<string | null>(null);
  const changed = value.trim() !== String(settings.labelMatchThreshold);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const number = value.trim() === '' ? Number.NaN : Number(value);
    const result = thresholdSchema.safeParse(number);
    if (!result.success) {
      setProblem(result.error.issues[0]?.message ?? 'Invalid value');
      return;
    }
    setProblem(null);
    save(
      { labelMatchThreshold: result.data },
      {
        title: 'Match threshold saved',
        description: `A label's recipient is filled in when the match is at least ${result.data}% sure.`,
      },
    );
  };

  return (
    <SettingsCard
      title="Label reading"
      description="When the camera reads a label, how sure the recipient match must be to fill it in."
    >
      <form onSubmit={submit} noValidate className="space-y-1.5">
        <Label htmlFor={id}>Match threshold</Label>
        <div className="flex flex-wrap items-center gap-2">
          <Input
            id={id}
            type="number"
            inputMode="numeric"
            min={LABEL_MATCH_THRESHOLD_MIN}
            max={LABEL_MATCH_THRESHOLD_MAX}
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
          <span className="text-sm text-fg-muted">% confidence</span>
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
            `Between ${LABEL_MATCH_THRESHOLD_MIN} and ${LABEL_MATCH_THRESHOLD_MAX}. Below it, the clerk picks from the best matches.`}
        </p>
      </form>
    </SettingsCard>
  );
}
