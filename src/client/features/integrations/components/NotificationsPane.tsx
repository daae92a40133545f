import { UpdateOrganizationSettingsBody, type OrganizationSettings } from '@contract';
import { BellRing, Clock, Info, MessageSquareText, type LucideIcon } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';

import { LoadError } from '@/components/ListState';
import { IconTile } from '@/components/IconTile';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { WholeNumberInput } from '@/components/WholeNumberInput';
import {
  useOrganizationSettings,
  useUpdateOrganizationSettings,
  type OrganizationSettingsChanges,
} from '@/lib/resources/organizationSettings';
import { toastFailure, useErrorToast } from '@/lib/useErrorToast';
import { ChannelsCard } from './ChannelsCard';

const SAVE_FAILED = 'Failed to update organization settings';
const PICKUP_MAX = 500;
const reminderDaysSchema = UpdateOrganizationSettingsBody.shape.reminderAfterDays.unwrap();
const pickupSchema = UpdateOrganizationSettingsBody.shape.pickupInstructions.unwrap();

/** The first validation message of the contract for a value, or null when it is fine. */
function problemOf(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? 'Invalid value');
}

interface SectionProps {
  icon: LucideIcon;
  title: string;
  description: string;
  children: ReactNode;
}

function Section({ icon, title, description, children }: SectionProps) {
  return (
    <section className="flex gap-4 py-5 first:pt-0 last:pb-0">
      <IconTile icon={icon} tone="indigo" className="hidden size-9 rounded-lg sm:flex" iconClassName="size-4.5" />
      <div className="min-w-0 flex-1 space-y-3">
        <div>
          <h3 className="text-sm font-semibold text-fg">{title}</h3>
          <p className="text-sm text-fg-subtle">{description}</p>
        </div>
        {children}
      </div>
    </section>
  );
}

function SwitchRow({
  id,
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-center justify-between gap-4 rounded-lg border border-line px-3 py-2.5">
      <div className="min-w-0">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-fg-subtle">
          {hint}
        </p>
      </div>
      <Switch
        id={id}
        aria-describedby={`${id}-hint`}
        checked={checked}
        disabled={disabled}
        onCheckedChange={onChange}
      />
    </div>
  );
}

type Save = (changes: OrganizationSettingsChanges, done: { title: string; description: string }) => void;

function NotificationsForm({
  settings,
  isAdmin,
  save,
  saving,
}: {
  settings: OrganizationSettings;
  isAdmin: boolean;
  /** Lives in the pane: this form is re-created when a saved value changes, the mutation is not. */
  save: Save;
  saving: boolean;
}) {
  const ids = useId();
  const [days, setDays] = useState(String(settings.reminderAfterDays));
  const [daysProblem, setDaysProblem] = useState<string | null>(null);
  const [pickup, setPickup] = useState(settings.pickupInstructions ?? '');
  const [pickupProblem, setPickupProblem] = useState<string | null>(null);

  const daysChanged = days.trim() !== String(settings.reminderAfterDays);
  const saveDays = (event: FormEvent) => {
    event.preventDefault();
    const value = days.trim() === '' ? Number.NaN : Number(days);
    const problem = problemOf(reminderDaysSchema.safeParse(value));
    setDaysProblem(problem);
    if (problem) return;
    save(
      { reminderAfterDays: value },
      {
        title: 'Reminder schedule saved',
        description: `Reminders go out after ${value} ${value === 1 ? 'day' : 'days'}.`,
      },
    );
  };

  const pickupChanged = pickup.trim() !== (settings.pickupInstructions ?? '');
  const savePickup = (event: FormEvent) => {
    event.preventDefault();
    const parsed = pickupSchema.safeParse(pickup);
    const problem = problemOf(parsed);
    setPickupProblem(problem);
    if (problem || !parsed.success) return;
    save(
      { pickupInstructions: parsed.data },
      {
        title: 'Pickup instructions saved',
        description: parsed.data
          ? 'New arrival messages will include them.'
          : 'Arrival messages no longer include pickup instructions.',
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Recipient notifications</CardTitle>
        <CardDescription>How and when recipients hear that something is waiting for them.</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="divide-y divide-line-subtle">
          <Section
            icon={BellRing}
            title="On arrival"
            description="An email to the recipient as soon as an item is logged at the front desk."
          >
            <SwitchRow
              id={`${ids}-auto`}
              label="Notify recipients automatically"
              hint="Off: staff notify each item themselves with Mark notified."
              checked={settings.autoNotifyRecipients}
              disabled={!isAdmin}
              onChange={(checked) =>
                save(
                  { autoNotifyRecipients: checked },
                  {
                    title: 'Preference saved',
                    description: checked
                      ? 'Recipients are notified as soon as their mail is logged.'
                      : 'Recipients are notified only when staff mark an item notified.',
                  },
                )
              }
            />
          </Section>

          <Section
            icon={Clock}
            title="Reminders"
            description="A reminder for items that are still waiting to be picked up."
          >
            <SwitchRow
              id={`${ids}-reminders`}
              label="Send reminders"
              hint="One reminder per item while it waits."
              checked={settings.sendReminders}
              disabled={!isAdmin}
              onChange={(checked) =>
                save(
                  { sendReminders: checked },
                  { title: 'Preference saved', description: `Reminders: ${checked ? 'on' : 'off'}.` },
                )
              }
            />
            <form onSubmit={saveDays} noValidate className="space-y-1.5">
              <Label htmlFor={`${ids}-days`}>Remind after</Label>
              <div className="flex flex-wrap items-center gap-2">
                <div className="flex items-center gap-2">
                  <WholeNumberInput
                    id={`${ids}-days`}
                    min={1}
                    max={30}
                    value={days}
                    disabled={!isAdmin || !settings.sendReminders}
                    aria-invalid={daysProblem ? true : undefined}
                    aria-describedby={`${ids}-days-note`}
                    onChange={(event) => {
                      setDays(event.target.value);
                      setDaysProblem(null);
                    }}
                    className="w-20"
                  />
                  <span className="text-sm text-fg-muted">days waiting</span>
                </div>
                {isAdmin && settings.sendReminders && daysChanged && (
                  <Button type="submit" size="sm" variant="outline" disabled={saving}>
                    Save
                  </Button>
                )}
              </div>
              <p
                id={`${ids}-days-note`}
                className={daysProblem ? 'text-sm text-red-600 dark:text-red-400' : 'text-xs text-fg-subtle'}
                role={daysProblem ? 'alert' : undefined}
              >
                {daysProblem ??
                  (settings.sendReminders
                    ? 'Between 1 and 30 days after arrival.'
                    : 'Turn on reminders to choose when they are sent.')}
              </p>
            </form>
          </Section>

          <Section
            icon={MessageSquareText}
            title="Pickup hours and instructions"
            description="Quoted in every arrival message, so recipients know when and where to collect."
          >
            {isAdmin ? (
              <form onSubmit={savePickup} noValidate className="space-y-2">
                <Label htmlFor={`${ids}-pickup`} className="sr-only">
                  Pickup instructions
                </Label>
                <Textarea
                  id={`${ids}-pickup`}
                  rows={4}
                  maxLength={PICKUP_MAX}
                  value={pickup}
                  placeholder="Front desk, lobby level. Mon–Fri 8:00–18:00, Sat 9:00–12:00. Bring photo ID."
                  aria-invalid={pickupProblem ? true : undefined}
                  aria-describedby={`${ids}-pickup-note`}
                  onChange={(event) => {
                    setPickup(event.target.value);
                    setPickupProblem(null);
                  }}
                />
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p
                    id={`${ids}-pickup-note`}
                    className={pickupProblem ? 'text-sm text-red-600 dark:text-red-400' : 'text-xs text-fg-subtle'}
                    role={pickupProblem ? 'alert' : undefined}
                  >
                    {pickupProblem ?? `${pickup.length}/${PICKUP_MAX} characters`}
                  </p>
                  <Button type="submit" size="sm" disabled={!pickupChanged || saving}>
                    Save instructions
                  </Button>
                </div>
              </form>
            ) : settings.pickupInstructions ? (
              <blockquote className="rounded-lg border-l-4 border-indigo-200 dark:border-indigo-800 bg-surface-subtle px-4 py-3 text-sm whitespace-pre-line text-fg-secondary">
                {settings.pickupInstructions}
              </blockquote>
            ) : (
              <p className="text-sm text-fg-subtle italic">No pickup instructions yet.</p>
            )}
          </Section>
        </div>
      </CardContent>
    </Card>
  );
}

/** Settings > Notifications: everyone sees it; only admins change it. */
export function NotificationsPane({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const { data, isPending, error, refetch } = useOrganizationSettings(organizationId);
  useErrorToast(error, 'Failed to fetch organization settings');
  const update = useUpdateOrganizationSettings(organizationId);
  const save: Save = (changes, done) =>
    update.mutate(changes, { onSuccess: () => toast(done), onError: (err) => toastFailure(SAVE_FAILED, err) });

  return (
    <div className="space-y-4">
      {!isAdmin && (
        <p className="flex items-start gap-2 rounded-lg border border-sky-200 dark:border-sky-800 bg-sky-50 dark:bg-sky-950/40 px-3 py-2 text-sm text-sky-800 dark:text-sky-300">
          <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
          Only admins can change notification settings. Ask an admin of your organization if something should change.
        </p>
      )}
      <ChannelsCard organizationId={organizationId} />
      {isPending ? (
        <Card className="space-y-6 p-6">
          {Array.from({ length: 3 }, (_, i) => (
            <div key={i} className="space-y-2">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-12 w-full" />
            </div>
          ))}
        </Card>
      ) : data ? (
        <NotificationsForm
          // a saved (or elsewhere changed) value resets the drafts to it
          key={`${data.reminderAfterDays}|${data.pickupInstructions ?? ''}`}
          settings={data}
          isAdmin={isAdmin}
          save={save}
          saving={update.isPending}
        />
      ) : (
        <Card>
          <LoadError
            icon={BellRing}
            title="The notification settings could not be loaded"
            onRetry={() => void refetch()}
          />
        </Card>
      )}
    </div>
  );
}
