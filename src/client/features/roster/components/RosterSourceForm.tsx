import { RosterSourceBody, type RosterSource } from '@contract';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { useSaveRosterSource } from '../api/saveSource';

/** The form's text fields; numbers and choices are read from them when it is sent. */
type Draft = {
  kind: 'https' | 'sftp';
  url: string;
  headerName: string;
  headerValue: string;
  host: string;
  port: string;
  path: string;
  username: string;
  sftpAuth: 'password' | 'private_key';
  secret: string;
  hostKey: string;
  externalId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  unit: string;
  department: string;
  recipientType: string;
  schedule: string;
  graceDays: string;
  approvalShare: string;
  enabled: boolean;
};

const MAPPED = [
  ['externalId', 'Resident id column', true],
  ['firstName', 'First name column', true],
  ['lastName', 'Last name column', true],
  ['email', 'Email column', false],
  ['phone', 'Phone column', false],
  ['unit', 'Unit column', false],
  ['department', 'Department column', false],
  ['recipientType', 'Type column', false],
] as const;

function draftOf(source: RosterSource | undefined): Draft {
  const m = source?.mapping;
  return {
    kind: source?.kind ?? 'https',
    url: source?.url ?? '',
    headerName: source?.headerName ?? '',
    headerValue: '',
    host: source?.host ?? '',
    port: String(source?.port ?? 22),
    path: source?.path ?? '',
    username: source?.username ?? '',
    sftpAuth: source?.sftpAuth ?? 'password',
    secret: '',
    hostKey: source?.sftpHostKey ?? '',
    externalId: m?.externalId ?? 'id',
    firstName: m?.firstName ?? 'first_name',
    lastName: m?.lastName ?? 'last_name',
    email: m?.email ?? 'email',
    phone: m?.phone ?? '',
    unit: m?.unit ?? 'unit',
    department: m?.department ?? '',
    recipientType: m?.recipientType ?? '',
    schedule: source?.schedule ?? 'daily',
    graceDays: String(source?.graceDays ?? 14),
    approvalShare: String(source?.approvalShare ?? 10),
    enabled: source?.enabled ?? true,
  };
}

/**
 * The draft as the contract's body: empty optional fields left out, so a stored secret stays; the
 * host key only when the admin changed it (cleared: the next connection's key is kept).
 */
function bodyOf(d: Draft, source: RosterSource | undefined): unknown {
  const optional = (v: string) => (v.trim() === '' ? undefined : v.trim());
  const common = {
    mapping: Object.fromEntries(MAPPED.map(([key]) => [key, optional(d[key])]).filter(([, v]) => v !== undefined)),
    schedule: d.schedule,
    graceDays: Number(d.graceDays),
    approvalShare: Number(d.approvalShare),
    enabled: d.enabled,
  };
  return d.kind === 'https'
    ? {
        kind: 'https',
        url: d.url.trim(),
        headerName: optional(d.headerName),
        headerValue: optional(d.headerValue),
        ...common,
      }
    : {
        kind: 'sftp',
        host: d.host.trim(),
        port: Number(d.port),
        path: d.path.trim(),
        username: d.username.trim(),
        sftpAuth: d.sftpAuth,
        secret: d.secret === '' ? undefined : d.secret,
        hostKey: d.hostKey.trim() === (source?.sftpHostKey ?? '') ? undefined : d.hostKey.trim(),
        ...common,
      };
}

/** Where the roster comes from, how its columns read, and when it runs (checked by the contract's schema). */
export function RosterSourceForm({
  organizationId,
  source,
  onDone,
}: {
  organizationId: string;
  source?: RosterSource;
  onDone?: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(source));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const save = useSaveRosterSource(organizationId, source?.id);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = RosterSourceBody.safeParse(bodyOf(draft, source));
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path.at(-1) ?? 'form');
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setFormError(undefined);
    save.mutate(parsed.data, {
      onSuccess: () => {
        toast({
          title: source ? 'Roster source saved' : 'Roster source added',
          description: 'Run it now to see the first preview.',
        });
        onDone?.();
      },
      onError: (err) => setFormError(serverMessage(err, 'The roster source could not be saved. Please try again.')),
    });
  };

  const text = (key: keyof Draft, label: string, props: { hint?: string; type?: string; optional?: boolean } = {}) => (
    <FormField id={`roster-${key}`} label={label} error={errors[key]} hint={props.hint} optional={props.optional}>
      <Input
        {...fieldA11y(`roster-${key}`, errors[key])}
        type={props.type ?? 'text'}
        value={draft[key] as string}
        onChange={(e) => set(key, e.target.value as never)}
        autoComplete="off"
        spellCheck={false}
      />
    </FormField>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>{source ? 'Roster source' : 'Set up the roster'}</CardTitle>
        <CardDescription>
          A CSV of your residents, fetched on a schedule from your property-management system. Each run adds, changes,
          moves and marks as left; the first run, and any run that would mark many as left, waits for your approval.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="space-y-6">
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">Where the file is</legend>
            <div className="flex gap-2" role="radiogroup" aria-label="Source">
              {(['https', 'sftp'] as const).map((kind) => (
                <Button
                  key={kind}
                  type="button"
                  role="radio"
                  aria-checked={draft.kind === kind}
                  variant={draft.kind === kind ? 'default' : 'outline'}
                  onClick={() => set('kind', kind)}
                >
                  {kind === 'https' ? 'HTTPS URL' : 'SFTP'}
                </Button>
              ))}
            </div>
            {draft.kind === 'https' ? (
              <div className="grid gap-3 sm:grid-cols-2">
                <div className="sm:col-span-2">{text('url', 'URL', { hint: 'https://… the CSV export' })}</div>
                {text('headerName', 'Header name', { optional: true, hint: 'e.g. Authorization' })}
                {text('headerValue', 'Header value', {
                  optional: true,
                  type: 'password',
                  hint: source?.hasSecret ? 'Stored; leave empty to keep it' : 'Sent with every fetch',
                })}
              </div>
            ) : (
              <div className="grid gap-3 sm:grid-cols-2">
                {text('host', 'Host')}
                {text('port', 'Port', { type: 'number' })}
                {text('path', 'File path', { hint: '/exports/residents.csv' })}
                {text('username', 'User name')}
                <div className="sm:col-span-2">
                  {text('hostKey', 'Host key fingerprint', {
                    optional: true,
                    hint: 'SHA256:… as ssh-keygen -lf prints it. Left empty, the first connection’s key is kept, and a server showing another key is refused.',
                  })}
                </div>
                <div className="flex gap-2 sm:col-span-2" role="radiogroup" aria-label="SFTP sign-in">
                  {(['password', 'private_key'] as const).map((auth) => (
                    <Button
                      key={auth}
                      type="button"
                      role="radio"
                      aria-checked={draft.sftpAuth === auth}
                      variant={draft.sftpAuth === auth ? 'default' : 'outline'}
                      onClick={() => set('sftpAuth', auth)}
                    >
                      {auth === 'password' ? 'Password' : 'Private key'}
                    </Button>
                  ))}
                </div>
                <div className="sm:col-span-2">
                  <FormField
                    id="roster-secret"
                    label={draft.sftpAuth === 'password' ? 'Password' : 'Private key'}
                    error={errors.secret}
                    hint={source?.hasSecret ? 'Stored; leave empty to keep it' : undefined}
                  >
                    {draft.sftpAuth === 'password' ? (
                      <Input
                        {...fieldA11y('roster-secret', errors.secret)}
                        type="password"
                        value={draft.secret}
                        onChange={(e) => set('secret', e.target.value)}
                        autoComplete="off"
                      />
                    ) : (
                      <Textarea
                        {...fieldA11y('roster-secret', errors.secret)}
                        value={draft.secret}
                        onChange={(e) => set('secret', e.target.value)}
                        rows={4}
                        placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
                        spellCheck={false}
                      />
                    )}
                  </FormField>
                </div>
              </div>
            )}
          </fieldset>

          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">Columns</legend>
            <p className="text-sm text-fg-secondary">
              The header of each column in your file; leave a field empty if the file has none.
            </p>
            <div className="grid gap-3 sm:grid-cols-2">
              {MAPPED.map(([key, label, required]) => (
                <div key={key}>{text(key, label, { optional: !required })}</div>
              ))}
            </div>
          </fieldset>

          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">Schedule and safeguards</legend>
            <div className="grid gap-3 sm:grid-cols-3">
              {text('schedule', 'Schedule', { hint: '"hourly", "daily" (03:00 UTC) or cron, e.g. 0 */6 * * *' })}
              {text('graceDays', 'Grace days', { type: 'number', hint: 'Those who left stay active this long' })}
              {text('approvalShare', 'Approval share (%)', {
                type: 'number',
                hint: 'A run marking more as left waits for you',
              })}
            </div>
            <label className="flex items-center gap-3 text-sm">
              <Switch
                checked={draft.enabled}
                onCheckedChange={(v) => set('enabled', v)}
                aria-label="Run on the schedule"
              />
              Run on the schedule
            </label>
          </fieldset>

          {formError || errors.form ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {formError ?? errors.form}
            </p>
          ) : null}
          <div className="flex gap-2">
            <Button type="submit" disabled={save.isPending}>
              {source ? 'Save' : 'Add the roster source'}
            </Button>
            {onDone && source ? (
              <Button type="button" variant="outline" onClick={onDone}>
                Cancel
              </Button>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
