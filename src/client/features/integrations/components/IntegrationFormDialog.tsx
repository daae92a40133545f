import {
  CreateIntegrationBody,
  INTEGRATION_MESSAGES,
  MASKED_SECRET,
  SLACK_MESSAGES,
  WEBHOOK_EVENTS,
  type Integration,
  type IntegrationType,
  type SlackChannel,
} from '@contract';
import { Info, TriangleAlert } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { ChoiceSelect } from '@/components/ui/choice-select';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { useMailrooms } from '@/lib/resources/mailrooms';
import { toastFailure } from '@/lib/useErrorToast';
import {
  useCreateIntegration,
  useSlackChannels,
  useUpdateIntegration,
  type CreatedIntegration,
  type IntegrationConfigDraft,
} from '../api/integrations';
import { kindOf } from '../integrationTypes';

interface FormValues {
  name: string;
  smtpHost: string;
  smtpPort: string;
  username: string;
  password: string;
  fromAddress: string;
  secure: boolean;
  accountSid: string;
  authToken: string;
  fromNumber: string;
  baseUrl: string;
  webhookUrl: string;
  webhookEvents: string[];
  teamsUrl: string;
  /** A mailroom id, or ALL_MAILROOMS. */
  teamsMailroom: string;
  botToken: string;
  staffChannelId: string;
}

const ALL_MAILROOMS = 'all';

type FieldName = keyof FormValues;

/** Where a contract issue path ('config.emailSettings.smtpPort') lands in the form. */
const fieldOfPath: Record<string, FieldName> = {
  name: 'name',
  'config.webhookUrl': 'webhookUrl',
  'config.webhookEvents': 'webhookEvents',
  'config.emailSettings.smtpHost': 'smtpHost',
  'config.emailSettings.smtpPort': 'smtpPort',
  'config.emailSettings.username': 'username',
  'config.emailSettings.password': 'password',
  'config.emailSettings.fromAddress': 'fromAddress',
  'config.smsSettings.accountSid': 'accountSid',
  'config.smsSettings.authToken': 'authToken',
  'config.smsSettings.fromNumber': 'fromNumber',
  'config.smsSettings.baseUrl': 'baseUrl',
  'config.teamsSettings.webhookUrl': 'teamsUrl',
  'config.teamsSettings.mailroomId': 'teamsMailroom',
  'config.slackSettings.botToken': 'botToken',
  'config.slackSettings.staffChannelId': 'staffChannelId',
};

const WEBHOOK_EVENT_LABELS: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  'mail_item.created': 'Item logged',
  'mail_item.notified': 'Recipient notified',
  'mail_item.delivered': 'Item handed over',
  'mail_item.returned': 'Item returned',
  'mail_item.deleted': 'Item deleted',
};

/** A stored secret comes back as MASKED_SECRET; the field then starts empty and keeps it when left so. */
function isSet(secret: string | undefined) {
  return Boolean(secret);
}

function formValues(type: IntegrationType, integration?: Integration): FormValues {
  const email = integration?.config.emailSettings;
  const sms = integration?.config.smsSettings;
  return {
    name: integration?.name ?? kindOf(type).defaultName,
    smtpHost: email?.smtpHost ?? '',
    smtpPort: email?.smtpPort ? String(email.smtpPort) : '',
    username: email?.username ?? '',
    password: '',
    fromAddress: email?.fromAddress ?? '',
    secure: email?.secure ?? false,
    accountSid: sms?.accountSid ?? '',
    authToken: '',
    fromNumber: sms?.fromNumber ?? '',
    baseUrl: sms?.baseUrl ?? '',
    webhookUrl: integration?.config.webhookUrl ?? '',
    webhookEvents: integration?.config.webhookEvents ?? [...WEBHOOK_EVENTS],
    teamsUrl: '',
    teamsMailroom: integration?.config.teamsSettings?.mailroomId ?? ALL_MAILROOMS,
    botToken: '',
    staffChannelId: integration?.config.slackSettings?.staffChannelId ?? '',
  };
}

/** No staff channel: the select's value for it (Radix refuses an empty string as an item value). */
const NO_CHANNEL = 'none';

/** Blank text becomes undefined so the server keeps (secrets) or leaves out (the rest) the field. */
const text = (value: string) => (value.trim() === '' || value === MASKED_SECRET ? undefined : value.trim());

function toConfig(type: IntegrationType, v: FormValues, channels: SlackChannel[] = []): IntegrationConfigDraft {
  switch (type) {
    case 'slack': {
      const channelId = v.staffChannelId === NO_CHANNEL ? '' : v.staffChannelId;
      return {
        slackSettings: {
          botToken: text(v.botToken),
          staffChannelId: channelId,
          staffChannelName: channels.find((c) => c.id === channelId)?.name,
        },
      };
    }
    case 'email':
      return {
        emailSettings: {
          smtpHost: v.smtpHost.trim(),
          smtpPort: v.smtpPort.trim() === '' ? undefined : (v.smtpPort.trim() as unknown as number),
          username: v.username.trim(),
          password: text(v.password),
          fromAddress: v.fromAddress.trim(),
          secure: v.secure,
        },
      };
    case 'sms':
      return {
        smsSettings: {
          accountSid: v.accountSid.trim(),
          authToken: text(v.authToken),
          fromNumber: v.fromNumber.trim(),
          baseUrl: v.baseUrl.trim(),
        },
      };
    case 'webhook':
      return { webhookUrl: v.webhookUrl.trim(), webhookEvents: v.webhookEvents as (typeof WEBHOOK_EVENTS)[number][] };
    case 'teams':
      return {
        teamsSettings: {
          webhookUrl: text(v.teamsUrl),
          mailroomId: v.teamsMailroom === ALL_MAILROOMS ? null : v.teamsMailroom,
        },
      };
    case 'api':
      return {};
  }
}

/** Checks the form with the contract's schema, so the messages are the server's own. */
/** `secretStored`: the integration already holds its secret (a Teams URL, a Slack token): blank keeps it. */
function resolverFor(type: IntegrationType, secretStored = false): Resolver<FormValues> {
  return (values) => {
    const errors: FieldErrors<FormValues> = {};
    const add = (field: FieldName, message: string) => {
      if (!errors[field]) errors[field] = { type: 'validate', message };
    };
    const parsed = CreateIntegrationBody.safeParse({ name: values.name, type, config: toConfig(type, values) });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = fieldOfPath[issue.path.join('.')];
        if (field) add(field, issue.message);
      }
    }
    if (type === 'webhook') {
      if (values.webhookUrl.trim() === '') add('webhookUrl', INTEGRATION_MESSAGES.webhookUrl);
      if (values.webhookEvents.length === 0) add('webhookEvents', 'Choose at least one event');
    }
    if (type === 'sms' && values.fromNumber.trim() === '') add('fromNumber', 'From number is required');
    if (type === 'teams' && !secretStored && values.teamsUrl.trim() === '')
      add('teamsUrl', INTEGRATION_MESSAGES.teamsUrl);
    if (type === 'slack' && values.botToken.trim() === '' && !secretStored)
      add('botToken', SLACK_MESSAGES.tokenRequired);
    return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
  };
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-lg border border-line p-4">
      <legend className="px-1 text-xs font-semibold tracking-wide text-fg-subtle uppercase">{title}</legend>
      {children}
    </fieldset>
  );
}

export interface IntegrationFormDialogProps {
  organizationId: string;
  /** The type of a new integration; ignored when editing. */
  type: IntegrationType;
  /** Edit this one; without it the dialog adds a new integration of `type`. */
  integration?: Integration;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A created integration whose reply carries a secret shown once (webhook signing secret, first API key). */
  onCreated?: (created: CreatedIntegration) => void;
}

function IntegrationForm({
  organizationId,
  type,
  integration,
  onOpenChange,
  onCreated,
}: Omit<IntegrationFormDialogProps, 'open'>) {
  const prefix = useId();
  const create = useCreateIntegration(organizationId);
  const update = useUpdateIntegration(organizationId);
  const pending = create.isPending || update.isPending;
  const { register, handleSubmit, formState, control, setValue, setError } = useForm<FormValues>({
    resolver: resolverFor(
      type,
      isSet(
        type === 'teams' ? integration?.config.teamsSettings?.webhookUrl : integration?.config.slackSettings?.botToken,
      ),
    ),
    defaultValues: formValues(type, integration),
  });
  // The staff channel's choices need the saved token: offered once the workspace is connected.
  const slackChannels = useSlackChannels(organizationId, type === 'slack' ? integration?.id : undefined);
  const staffChannelId = useWatch({ control, name: 'staffChannelId' });
  const { errors } = formState;
  const id = (field: FieldName) => `${prefix}-${field}`;
  const a11y = (field: FieldName) => fieldA11y(id(field), errors[field]?.message);
  const secure = useWatch({ control, name: 'secure' });
  const events = useWatch({ control, name: 'webhookEvents' });
  const mailrooms = useMailrooms(type === 'teams' ? organizationId : undefined);
  const mailroomName = (id: string) =>
    id === ALL_MAILROOMS ? 'All mailrooms' : (mailrooms.data?.find((m) => m.id === id)?.name ?? 'A removed mailroom');

  /** The server's per-field messages ({errors: [{path, message}]}) shown at their fields. */
  const showServerErrors = (err: unknown) => {
    if (!(err instanceof ApiError)) return;
    for (const e of err.reply?.errors ?? []) {
      const field = fieldOfPath[e.path.replace(/^body\./, '').replace(/\//g, '.')];
      if (field) setError(field, { message: e.message });
    }
  };

  const submit = handleSubmit((values) => {
    const config = toConfig(type, values, slackChannels.data);
    if (integration) {
      update.mutate(
        { id: integration.id, changes: { name: values.name.trim(), config } },
        {
          onSuccess: (saved) => {
            toast({ title: 'Integration updated', description: `${saved.name} has been saved.` });
            onOpenChange(false);
          },
          onError: (err) => {
            showServerErrors(err);
            toastFailure(INTEGRATION_MESSAGES.updateFailed, err);
          },
        },
      );
    } else {
      create.mutate(
        { name: values.name.trim(), type, config, isActive: true },
        {
          onSuccess: (created) => {
            toast({ title: 'Integration added', description: `${created.name} is on.` });
            onOpenChange(false);
            onCreated?.(created);
          },
          onError: (err) => {
            showServerErrors(err);
            toastFailure(INTEGRATION_MESSAGES.createFailed, err);
          },
        },
      );
    }
  });

  const secretHint = (stored: boolean, what: string) =>
    integration && stored ? `Saved. Leave blank to keep the current ${what}.` : undefined;
  const secretPlaceholder = (stored: boolean) => (integration && stored ? MASKED_SECRET : undefined);

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-5">
      <FormField id={id('name')} label="Name" error={errors.name?.message}>
        <Input {...register('name')} {...a11y('name')} autoComplete="off" />
      </FormField>

      {type === 'email' && (
        <>
          <p className="flex items-start gap-2 rounded-lg bg-surface-subtle px-3 py-2 text-xs text-fg-muted">
            <Info aria-hidden className="mt-0.5 size-3.5 shrink-0" />
            Leave the server blank to send through Pigeonhole’s own mail server.
          </p>
          <Group title="SMTP server">
            <div className="grid gap-4 sm:grid-cols-[1fr_7rem]">
              <FormField id={id('smtpHost')} label="SMTP host" error={errors.smtpHost?.message}>
                <Input
                  {...register('smtpHost')}
                  {...a11y('smtpHost')}
                  placeholder="smtp.example.com"
                  autoComplete="off"
                  spellCheck={false}
                />
              </FormField>
              <FormField id={id('smtpPort')} label="Port" error={errors.smtpPort?.message}>
                <Input
                  {...register('smtpPort')}
                  {...a11y('smtpPort')}
                  inputMode="numeric"
                  placeholder="587"
                  autoComplete="off"
                />
              </FormField>
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField id={id('username')} label="Username" optional error={errors.username?.message}>
                <Input {...register('username')} {...a11y('username')} autoComplete="off" spellCheck={false} />
              </FormField>
              <FormField
                id={id('password')}
                label="Password"
                optional
                error={errors.password?.message}
                hint={secretHint(isSet(integration?.config.emailSettings?.password), 'password')}
              >
                <Input
                  {...register('password')}
                  {...a11y('password')}
                  type="password"
                  autoComplete="new-password"
                  placeholder={secretPlaceholder(isSet(integration?.config.emailSettings?.password))}
                />
              </FormField>
            </div>
            <div className="flex items-center justify-between gap-4 rounded-lg border border-line px-3 py-2.5">
              <div>
                <Label htmlFor={id('secure')}>Use TLS</Label>
                <p className="text-xs text-fg-subtle">On for port 465; off uses STARTTLS when the server offers it.</p>
              </div>
              <Switch
                id={id('secure')}
                checked={secure}
                onCheckedChange={(checked) => setValue('secure', checked, { shouldDirty: true })}
              />
            </div>
          </Group>
          <FormField
            id={id('fromAddress')}
            label="From address"
            optional
            error={errors.fromAddress?.message}
            hint="What recipients see as the sender, e.g. Front Desk <desk@example.com>."
          >
            <Input {...register('fromAddress')} {...a11y('fromAddress')} placeholder="desk@example.com" />
          </FormField>
        </>
      )}

      {type === 'sms' && (
        <Group title="Twilio account">
          <FormField id={id('accountSid')} label="Account SID" error={errors.accountSid?.message}>
            <Input
              {...register('accountSid')}
              {...a11y('accountSid')}
              placeholder="AC…"
              autoComplete="off"
              spellCheck={false}
            />
          </FormField>
          <FormField
            id={id('authToken')}
            label="Auth token"
            error={errors.authToken?.message}
            hint={secretHint(isSet(integration?.config.smsSettings?.authToken), 'token')}
          >
            <Input
              {...register('authToken')}
              {...a11y('authToken')}
              type="password"
              autoComplete="new-password"
              placeholder={secretPlaceholder(isSet(integration?.config.smsSettings?.authToken))}
            />
          </FormField>
          <FormField
            id={id('fromNumber')}
            label="From number"
            error={errors.fromNumber?.message}
            hint="A Twilio number in international format."
          >
            <Input
              {...register('fromNumber')}
              {...a11y('fromNumber')}
              type="tel"
              placeholder="+15551234567"
              autoComplete="off"
            />
          </FormField>
          <FormField
            id={id('baseUrl')}
            label="API base URL"
            optional
            error={errors.baseUrl?.message}
            hint="Only for a Twilio-compatible provider; blank uses https://api.twilio.com."
          >
            <Input
              {...register('baseUrl')}
              {...a11y('baseUrl')}
              type="url"
              placeholder="https://api.twilio.com"
              spellCheck={false}
            />
          </FormField>
        </Group>
      )}

      {type === 'webhook' && (
        <>
          <FormField
            id={id('webhookUrl')}
            label="Webhook URL"
            error={errors.webhookUrl?.message}
            hint="Each call is signed (Standard Webhooks); the signing secret is shown once after saving."
          >
            <Input
              {...register('webhookUrl')}
              {...a11y('webhookUrl')}
              type="url"
              placeholder="https://example.com/hooks/pigeonhole"
              spellCheck={false}
            />
          </FormField>
          <fieldset
            className="space-y-2"
            aria-invalid={errors.webhookEvents ? true : undefined}
            aria-describedby={errors.webhookEvents ? `${id('webhookEvents')}-error` : undefined}
          >
            <legend className="mb-1.5 text-sm font-medium text-fg-secondary">Events</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {WEBHOOK_EVENTS.map((event) => (
                <label
                  key={event}
                  className="flex cursor-pointer items-start gap-2.5 rounded-lg border border-line px-3 py-2 hover:bg-surface-subtle has-[:checked]:border-indigo-300 dark:has-[:checked]:border-indigo-700 has-[:checked]:bg-indigo-50/50 dark:has-[:checked]:bg-indigo-950/40"
                >
                  <input
                    type="checkbox"
                    value={event}
                    {...register('webhookEvents')}
                    className="mt-0.5 size-4 accent-indigo-600"
                  />
                  <span className="min-w-0">
                    <span className="block text-sm text-fg">{WEBHOOK_EVENT_LABELS[event]}</span>
                    <span className="block font-mono text-xs text-fg-subtle">{event}</span>
                  </span>
                </label>
              ))}
            </div>
            {errors.webhookEvents ? (
              <p id={`${id('webhookEvents')}-error`} className="text-sm text-red-600 dark:text-red-400">
                {errors.webhookEvents.message}
              </p>
            ) : (
              <p className="text-xs text-fg-subtle">
                {events.length} of {WEBHOOK_EVENTS.length} events
              </p>
            )}
          </fieldset>
        </>
      )}

      {type === 'teams' && (
        <>
          <p className="flex items-start gap-2 rounded-lg bg-surface-subtle px-3 py-2 text-xs text-fg-muted">
            <Info aria-hidden className="mt-0.5 size-3.5 shrink-0" />
            In Teams, add the Workflows template “Post to a channel when a webhook request is received” to the channel
            and paste its URL here. Arrivals and items that need a recipient are posted as cards.
          </p>
          <FormField
            id={id('teamsUrl')}
            label="Workflows webhook URL"
            error={errors.teamsUrl?.message}
            hint={secretHint(isSet(integration?.config.teamsSettings?.webhookUrl), 'URL')}
          >
            <Input
              {...register('teamsUrl')}
              {...a11y('teamsUrl')}
              type="url"
              autoComplete="off"
              spellCheck={false}
              placeholder={
                secretPlaceholder(isSet(integration?.config.teamsSettings?.webhookUrl)) ??
                'https://prod-00.westus.logic.azure.com/workflows/…'
              }
            />
          </FormField>
          <FormField
            id={id('teamsMailroom')}
            label="Mailroom"
            error={errors.teamsMailroom?.message}
            hint="The channel hears of this mailroom’s items only; add one Teams integration per mailroom."
          >
            <Controller
              control={control}
              name="teamsMailroom"
              render={({ field }) => (
                <ChoiceSelect
                  id={id('teamsMailroom')}
                  options={[ALL_MAILROOMS, ...(mailrooms.data ?? []).map((m) => m.id)]}
                  label={mailroomName}
                  error={errors.teamsMailroom?.message}
                  {...field}
                />
              )}
            />
          </FormField>
        </>
      )}
      {type === 'slack' && (
        <>
          {integration?.attention && (
            <p
              role="alert"
              className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 dark:bg-amber-950/40 dark:text-amber-300"
            >
              <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
              {integration.attention.reason}
            </p>
          )}
          {integration?.config.slackSettings?.teamName && !integration.attention && (
            <p className="flex items-start gap-2 rounded-lg bg-surface-subtle px-3 py-2 text-sm text-fg-muted">
              <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
              Connected to {integration.config.slackSettings.teamName}
            </p>
          )}
          <FormField
            id={id('botToken')}
            label="Bot token"
            error={errors.botToken?.message}
            hint={
              secretHint(isSet(integration?.config.slackSettings?.botToken), 'token') ??
              'The Bot User OAuth Token (xoxb-…) of your Slack app, with chat:write, users:read, users:read.email and channels:read. Checked with Slack when you save.'
            }
          >
            <Input
              {...register('botToken')}
              {...a11y('botToken')}
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              placeholder={secretPlaceholder(isSet(integration?.config.slackSettings?.botToken)) ?? 'xoxb-…'}
            />
          </FormField>
          {integration ? (
            <FormField
              id={id('staffChannelId')}
              label="Staff channel"
              optional
              error={errors.staffChannelId?.message ?? (slackChannels.error ? slackChannels.error.message : undefined)}
              hint="Items that need a recipient and failed roster updates are posted here. Invite the app to a private channel first."
            >
              <Select
                value={staffChannelId || NO_CHANNEL}
                onValueChange={(value) => setValue('staffChannelId', value, { shouldDirty: true })}
                disabled={slackChannels.isPending}
              >
                <SelectTrigger {...a11y('staffChannelId')}>
                  <SelectValue placeholder={slackChannels.isPending ? 'Loading channels…' : 'No staff channel'} />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={NO_CHANNEL}>No staff channel</SelectItem>
                  {(slackChannels.data ?? []).map((c) => (
                    <SelectItem key={c.id} value={c.id}>
                      {c.isPrivate ? '🔒 ' : '#'}
                      {c.name}
                      {c.isMember ? '' : ' (invite the app)'}
                    </SelectItem>
                  ))}
                  {staffChannelId &&
                    staffChannelId !== NO_CHANNEL &&
                    slackChannels.data &&
                    !slackChannels.data.some((c) => c.id === staffChannelId) && (
                      <SelectItem value={staffChannelId}>
                        {integration.config.slackSettings?.staffChannelName ?? staffChannelId}
                      </SelectItem>
                    )}
                </SelectContent>
              </Select>
            </FormField>
          ) : (
            <p className="flex items-start gap-2 rounded-lg bg-surface-subtle px-3 py-2 text-xs text-fg-muted">
              <Info aria-hidden className="mt-0.5 size-3.5 shrink-0" />
              Recipients whose email is in the workspace get a direct message. After saving, edit the integration to
              pick the staff channel.
            </p>
          )}
        </>
      )}

      {type === 'api' && (
        <p className="flex items-start gap-2 rounded-lg bg-surface-subtle px-3 py-2 text-sm text-fg-muted">
          <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
          {integration
            ? 'Manage this integration’s keys from API keys in its menu.'
            : 'Saving creates a first API key, shown once. Calls made with it act for this organization with the member role; the reference is at /api/docs.'}
        </p>
      )}

      <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : integration ? 'Save changes' : 'Add integration'}
        </Button>
      </div>
    </form>
  );
}

/** Add or edit an integration; the fields follow its type. */
export function IntegrationFormDialog(props: IntegrationFormDialogProps) {
  const { open, onOpenChange, integration, type } = props;
  const kind = kindOf(integration?.type ?? type);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={integration ? `Edit ${integration.name}` : `Add ${kind.title}`}
        description={kind.description}
        className="sm:max-w-xl"
      >
        {open && <IntegrationForm {...props} type={kind.type} />}
      </DialogContent>
    </Dialog>
  );
}
