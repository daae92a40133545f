import {
  CORE_STATUSES,
  LANGUAGE_NAMES,
  LABEL_MATCH_THRESHOLD_MAX,
  LABEL_MATCH_THRESHOLD_MIN,
  LONGEST_HOLD_DAYS_MAX,
  LONGEST_HOLD_DAYS_MIN,
  SUPPORTED_LANGUAGES,
  UpdateOrganizationSettingsBody,
  VALUE_ALREADY_EXISTS,
  type Language,
  type OrganizationSettings,
  type SettingsList,
} from '@contract';
import { Info, Lock, Plus, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ListState';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { listValueLabel } from '@/lib/listLabels';
import { toastFailure, useErrorToast } from '@/lib/useErrorToast';
import {
  useOrganizationSettings,
  useUpdateOrganizationSettings,
  type OrganizationSettingsChanges,
} from '@/lib/resources/organizationSettings';
import { NumberSettingCard } from './NumberSettingCard';
import { SettingsCard } from './SettingsCard';

const DUPLICATE = VALUE_ALREADY_EXISTS;
const SAVE_FAILED = 'Failed to update organization settings';
const coreStatuses: readonly string[] = CORE_STATUSES;

const lists: { key: SettingsList; title: string; singular: string; description: string }[] = [
  {
    key: 'packageTypes',
    title: 'Package Types',
    singular: 'package type',
    description: 'The kinds of item staff choose from when logging mail.',
  },
  { key: 'packageSizes', title: 'Package Sizes', singular: 'package size', description: 'Sizes recorded on intake.' },
  {
    key: 'courierCompanies',
    title: 'Courier Companies',
    singular: 'courier company',
    description: 'Carriers offered on intake.',
  },
  {
    key: 'customStatuses',
    title: 'Statuses',
    singular: 'status',
    description: 'Pending, notified and delivered drive the pickup flow and cannot be removed.',
  },
];

/** Auto-notify is also on the Notifications tab, beside reminders and pickup instructions. */
type Preference =
  | 'allowEditAfterDelivery'
  | 'requirePhotoUpload'
  | 'autoNotifyRecipients'
  | 'handoverRequiresSignature'
  | 'handoverRequiresPhoto';

const preferences: { key: Preference; label: string; description: string }[] = [
  {
    key: 'allowEditAfterDelivery',
    label: 'Allow edit after delivery',
    description: 'Staff may still change an item’s details after it has been handed over.',
  },
  {
    key: 'requirePhotoUpload',
    label: 'Require photo upload',
    description: 'Every logged item needs a photo, a scan or an uploaded image.',
  },
  {
    key: 'autoNotifyRecipients',
    label: 'Notify recipients automatically',
    description: 'An email or text goes to the recipient as soon as an item is logged.',
  },
  {
    key: 'handoverRequiresSignature',
    label: 'Require a signature at hand-over',
    description: 'The collector signs on the screen before any item is handed over.',
  },
  {
    key: 'handoverRequiresPhoto',
    label: 'Require a photo at hand-over',
    description: 'A photo of the collector is taken at every hand-over.',
  },
];

/** The server's "Value already exists" reply names the value in its first error. */
function toastSaveFailure(err: unknown) {
  if (err instanceof ApiError && err.reply?.message === DUPLICATE) {
    toast({ title: DUPLICATE, description: err.reply.errors?.[0]?.message, variant: 'destructive' });
  } else {
    toastFailure(SAVE_FAILED, err);
  }
}

interface ListEditorProps {
  /** The setting it edits, whose contract rule checks the list before it is sent. */
  field: SettingsList;
  title: string;
  singular: string;
  description: string;
  values: string[];
  isAdmin: boolean;
  isLocked: (value: string) => boolean;
  /** How a value reads: keys such as `certified_mail` are never shown (decision 063). */
  labelOf: (value: string) => string;
  onChange: (values: string[], change: { added?: string; removed?: string }) => void;
}

function ListEditor({
  field,
  title,
  singular,
  description,
  values,
  isAdmin,
  isLocked,
  labelOf,
  onChange,
}: ListEditorProps) {
  const ids = useId();
  const [draft, setDraft] = useState('');

  const add = (event: FormEvent) => {
    event.preventDefault();
    const value = draft.trim();
    if (!value) return; // spec §5: blank values are ignored
    const checked = UpdateOrganizationSettingsBody.shape[field].unwrap().safeParse([...values, value]);
    if (!checked.success) {
      const { message } = checked.error.issues[0]!;
      const description = message === DUPLICATE ? `"${value}" is already in the list` : undefined;
      toast({ title: message, description, variant: 'destructive' });
      return;
    }
    onChange([...values, value], { added: value });
    setDraft('');
  };

  return (
    <section aria-labelledby={`${ids}-title`} className="flex flex-col rounded-lg border border-line p-3 sm:p-4">
      <h3 id={`${ids}-title`} className="text-sm font-semibold text-fg">
        {title}
      </h3>
      <p className="mt-0.5 text-xs text-fg-subtle">{description}</p>
      <ul aria-label={title} className="mt-3 flex flex-wrap gap-2">
        {values.map((value) => (
          <li
            key={value}
            className="inline-flex h-7 items-center gap-1 rounded-full border border-line bg-surface-subtle pr-1 pl-3 text-sm text-fg-secondary"
          >
            <span className="max-w-48 truncate">{labelOf(value)}</span>
            {isLocked(value) ? (
              <span
                title="Required: cannot be removed"
                className="flex size-5 items-center justify-center text-fg-faint"
              >
                <Lock aria-hidden className="size-3" />
                <span className="sr-only">(required)</span>
              </span>
            ) : isAdmin ? (
              <button
                type="button"
                aria-label={`Remove ${labelOf(value)} from ${title}`}
                onClick={() =>
                  onChange(
                    values.filter((v) => v !== value),
                    { removed: value },
                  )
                }
                className="flex size-5 items-center justify-center rounded-full text-fg-faint hover:bg-surface-strong hover:text-fg-secondary focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
              >
                <X aria-hidden className="size-3.5" />
              </button>
            ) : (
              <span className="w-1" />
            )}
          </li>
        ))}
        {values.length === 0 && <li className="text-sm text-fg-subtle">No values yet.</li>}
      </ul>
      {isAdmin && (
        <form onSubmit={add} className="mt-auto flex gap-2 pt-4">
          <Input
            aria-label={`New ${singular}`}
            placeholder={`Add a ${singular}`}
            value={draft}
            maxLength={50}
            onChange={(event) => setDraft(event.target.value)}
            className="h-9"
          />
          <Button type="submit" variant="outline" className="h-9 px-3">
            <Plus aria-hidden /> Add
          </Button>
        </form>
      )}
    </section>
  );
}

function CustomizationForm({
  organizationId,
  settings,
  isAdmin,
}: {
  organizationId: string;
  settings: OrganizationSettings;
  isAdmin: boolean;
}) {
  const update = useUpdateOrganizationSettings(organizationId);
  const ids = useId();

  const save = (changes: OrganizationSettingsChanges, done: { title: string; description: string }) =>
    update.mutate(changes, { onSuccess: () => toast(done), onError: toastSaveFailure });

  return (
    <div className="space-y-6">
      <SettingsCard
        title="Lists"
        description="The choices staff see when they log and update mail."
        contentClassName="grid gap-4 p-4 sm:p-6 lg:grid-cols-2"
      >
        {lists.map((list) => (
          <ListEditor
            key={list.key}
            field={list.key}
            title={list.title}
            singular={list.singular}
            description={list.description}
            values={settings[list.key]}
            isAdmin={isAdmin}
            isLocked={(value) => list.key === 'customStatuses' && coreStatuses.includes(value)}
            labelOf={(value) => listValueLabel(list.key, value)}
            onChange={(values, { added, removed }) =>
              save(
                { [list.key]: values },
                added
                  ? { title: `${list.title} updated`, description: `"${listValueLabel(list.key, added)}" was added.` }
                  : {
                      title: `${list.title} updated`,
                      description: `"${listValueLabel(list.key, removed ?? '')}" was removed.`,
                    },
              )
            }
          />
        ))}
      </SettingsCard>
      <SettingsCard title="Preferences" description="Saved as soon as you switch them.">
        <ul className="divide-y divide-line-subtle">
          {preferences.map((preference) => (
            <li key={preference.key} className="flex items-center justify-between gap-4 py-3 first:pt-0 last:pb-0">
              <div>
                <Label htmlFor={`${ids}-${preference.key}`}>{preference.label}</Label>
                <p id={`${ids}-${preference.key}-hint`} className="text-sm text-fg-subtle">
                  {preference.description}
                </p>
              </div>
              <Switch
                id={`${ids}-${preference.key}`}
                aria-describedby={`${ids}-${preference.key}-hint`}
                checked={settings[preference.key]}
                disabled={!isAdmin}
                onCheckedChange={(checked) =>
                  save(
                    { [preference.key]: checked },
                    { title: 'Preference saved', description: `${preference.label}: ${checked ? 'on' : 'off'}.` },
                  )
                }
              />
            </li>
          ))}
        </ul>
      </SettingsCard>
      {/* The language of recipients' messages and page when they have none (decision 066). */}
      <SettingsCard
        title="Recipients' language"
        description="Messages to recipients, and their own page, are in their language when the desk, the import, the directory or they themselves set one; otherwise in this one."
      >
        <div className="space-y-1.5">
          <Label htmlFor={`${ids}-defaultLanguage`}>Default language</Label>
          <select
            id={`${ids}-defaultLanguage`}
            className="h-9 w-full max-w-xs rounded-md border border-line bg-surface px-3 text-sm text-fg disabled:opacity-60"
            value={settings.defaultLanguage}
            disabled={!isAdmin || update.isPending}
            onChange={(e) => {
              const language = e.target.value as Language;
              save(
                { defaultLanguage: language },
                { title: 'Default language saved', description: `${LANGUAGE_NAMES[language]}.` },
              );
            }}
          >
            {SUPPORTED_LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {LANGUAGE_NAMES[code]}
              </option>
            ))}
          </select>
        </div>
      </SettingsCard>
      {/* Label reading (issue 28): how sure the match of a label's addressee must be to fill in the
          recipient by itself; below it the clerk picks from the candidates. */}
      <NumberSettingCard
        // a saved (or elsewhere changed) value resets the draft to it
        key={`label-${settings.labelMatchThreshold}`}
        field="labelMatchThreshold"
        settings={settings}
        isAdmin={isAdmin}
        saving={update.isPending}
        save={save}
        title="Label reading"
        description="When the camera reads a label, how sure the recipient match must be to fill it in."
        label="Match threshold"
        unit="% confidence"
        min={LABEL_MATCH_THRESHOLD_MIN}
        max={LABEL_MATCH_THRESHOLD_MAX}
        note={`Between ${LABEL_MATCH_THRESHOLD_MIN} and ${LABEL_MATCH_THRESHOLD_MAX}. Below it, the clerk picks from the best matches.`}
        saved={(value) => ({
          title: 'Match threshold saved',
          description: `A label's recipient is filled in when the match is at least ${value}% sure.`,
        })}
      />
      {/* The longest hold (decision 052): how many days in all a recipient may have an item held,
          from the day they first held it; their page offers no later date. */}
      <NumberSettingCard
        key={`hold-${settings.longestHoldDays}`}
        field="longestHoldDays"
        settings={settings}
        isAdmin={isAdmin}
        saving={update.isPending}
        save={save}
        title="Holds"
        description="Recipients can ask the desk, on their own page, to keep an item until a date."
        label="Longest hold"
        unit="days in all"
        min={LONGEST_HOLD_DAYS_MIN}
        max={LONGEST_HOLD_DAYS_MAX}
        note={`Counted from the day an item is first held; renewing never goes past it. Between ${LONGEST_HOLD_DAYS_MIN} and ${LONGEST_HOLD_DAYS_MAX}.`}
        saved={(value) => ({
          title: 'Longest hold saved',
          description: `A recipient can have an item held for at most ${value} ${value === 1 ? 'day' : 'days'} in all.`,
        })}
      />
    </div>
  );
}

/** Settings > Customization: the four lists and three preferences; admins edit, members read. */
export function CustomizationPane({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const { data, isPending, error, refetch } = useOrganizationSettings(organizationId);
  useErrorToast(error, 'Failed to fetch organization settings');

  return (
    <div className="space-y-4">
      {!isAdmin && (
        <p className="flex items-start gap-2 rounded-lg border border-sky-200 dark:border-sky-800 bg-sky-50 dark:bg-sky-950/40 px-3 py-2 text-sm text-sky-800 dark:text-sky-300">
          <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
          Only admins can change these lists and preferences.
        </p>
      )}
      {isPending ? (
        <Card className="grid gap-4 p-6 lg:grid-cols-2">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-32 w-full" />
          ))}
        </Card>
      ) : data ? (
        <CustomizationForm organizationId={organizationId} settings={data} isAdmin={isAdmin} />
      ) : (
        <Card>
          <LoadError title="The organization settings could not be loaded" onRetry={() => void refetch()} />
        </Card>
      )}
    </div>
  );
}
