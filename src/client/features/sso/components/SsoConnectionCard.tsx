import { ROLES, SsoConnectionBody, type SsoConnection, type SsoProtocol } from '@contract';
import { KeyRound } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { CopyField } from '@/components/CopyButton';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ChoiceSelect } from '@/components/ui/choice-select';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { ApiError, serverMessage } from '@/lib/api';
import { useMembers } from '@/lib/resources/organizations';
import { toastFailure } from '@/lib/useErrorToast';
import {
  useRemoveSsoConnection,
  useSaveSsoConnection,
  useSsoConnection,
  useTestSsoConnection,
} from '../api/connection';
import { SamlFields } from './SamlFields';

/**
 * Settings > Single sign-on: the organization's identity provider (decision 059). OpenID Connect
 * here; the SAML fields are the SAML half's (SamlFields, slot below). Loaded lazily with the tab.
 */

type Form = {
  protocol: SsoProtocol;
  enabled: boolean;
  oidcIssuer: string;
  oidcClientId: string;
  oidcClientSecret: string;
  defaultRole: 'admin' | 'member';
  adminClaim: string;
  adminValue: string;
  requireSso: boolean;
  breakGlassUserId: string;
  /** The SAML half's fields, kept as it sets them (idpMetadataUrl, idpMetadataXml, allowIdpInitiated). */
  saml: Record<string, unknown>;
};

/** The select's value for nobody (a Radix select item cannot have an empty value). */
const NO_BREAK_GLASS = 'nobody';

function formOf(c: SsoConnection | null): Form {
  return {
    protocol: c?.protocol ?? 'oidc',
    enabled: c?.enabled ?? false,
    oidcIssuer: c?.oidcIssuer ?? '',
    oidcClientId: c?.oidcClientId ?? '',
    oidcClientSecret: '',
    defaultRole: c?.defaultRole ?? 'member',
    adminClaim: c?.adminClaim ?? '',
    adminValue: c?.adminValue ?? '',
    requireSso: c?.requireSso ?? false,
    breakGlassUserId: c?.breakGlassUserId ?? NO_BREAK_GLASS,
    saml: c ? { idpMetadataUrl: c.idpMetadataUrl, allowIdpInitiated: c.allowIdpInitiated } : {},
  };
}

function bodyOf(f: Form) {
  return {
    protocol: f.protocol,
    enabled: f.enabled,
    oidcIssuer: f.oidcIssuer,
    oidcClientId: f.oidcClientId,
    oidcClientSecret: f.oidcClientSecret,
    defaultRole: f.defaultRole,
    adminClaim: f.adminClaim,
    adminValue: f.adminValue,
    requireSso: f.requireSso,
    breakGlassUserId: f.breakGlassUserId === NO_BREAK_GLASS ? null : f.breakGlassUserId,
    ...f.saml,
  };
}

/** A labelled on/off setting. */
function Toggle({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: ReactNode;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <Label htmlFor={id}>{label}</Label>
        <p className="text-xs text-fg-subtle">{hint}</p>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} />
    </div>
  );
}

export function SsoConnectionCard({ organizationId }: { organizationId: string }) {
  const connection = useSsoConnection(organizationId);
  if (connection.isPending) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Single sign-on</CardTitle>
        </CardHeader>
        <CardContent>
          <Skeleton className="h-24 w-full" aria-label="Loading single sign-on" />
        </CardContent>
      </Card>
    );
  }
  if (connection.isError) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Single sign-on</CardTitle>
          <CardDescription>The single sign-on settings could not be loaded.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={() => void connection.refetch()}>
            Try again
          </Button>
        </CardContent>
      </Card>
    );
  }
  // A new saved version starts the form afresh from it.
  return (
    <SsoConnectionForm
      key={connection.data?.updatedAt ?? 'none'}
      organizationId={organizationId}
      saved={connection.data}
    />
  );
}

function SsoConnectionForm({ organizationId, saved }: { organizationId: string; saved: SsoConnection | null }) {
  const [form, setForm] = useState<Form>(() => formOf(saved));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirmRemove, setConfirmRemove] = useState(false);
  const save = useSaveSsoConnection(organizationId);
  const remove = useRemoveSsoConnection(organizationId);
  const test = useTestSsoConnection(organizationId);
  const members = useMembers(organizationId);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const admins = (members.data ?? []).filter((m) => m.role === 'admin');
  const redirectUri = saved?.redirectUri ?? `${window.location.origin}/api/sso/oidc/callback`;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = bodyOf(form);
    // The contract's own checks first (the same messages the server gives).
    const checked = SsoConnectionBody.safeParse(body);
    const found: Record<string, string> = {};
    if (!checked.success) for (const issue of checked.error.issues) found[String(issue.path[0])] ??= issue.message;
    if (!saved?.oidcClientSecretSet && form.protocol === 'oidc' && !form.oidcClientSecret.trim()) {
      found.oidcClientSecret ??= 'Enter the client secret the provider gave Pigeonhole';
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(body as SsoConnectionBody, {
      onSuccess: () => toast({ title: 'Single sign-on saved', description: form.enabled ? 'It is on.' : 'It is off.' }),
      onError: (err) => {
        const fields = err instanceof ApiError ? err.reply?.errors : undefined;
        if (fields?.length) setErrors(Object.fromEntries(fields.map((e) => [e.path, e.message])));
        else toastFailure('Single sign-on could not be saved', err);
      },
    });
  };

  const runTest = () =>
    test.mutate(form.oidcIssuer.trim() || null, {
      onError: (err) => setErrors((e) => ({ ...e, oidcIssuer: serverMessage(err, 'The test could not run.') })),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-5" aria-hidden /> Single sign-on
        </CardTitle>
        <CardDescription>
          Your people sign in through your identity provider (Entra ID, Google Workspace, Okta or any standard
          provider). Only addresses at a verified domain above are signed in this way.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Single sign-on settings">
          <FormField id="sso-protocol" label="Protocol">
            <ChoiceSelect
              id="sso-protocol"
              options={['oidc', 'saml']}
              value={form.protocol}
              onChange={(v) => set('protocol', v as SsoProtocol)}
              onBlur={() => undefined}
              label={(p) => (p === 'oidc' ? 'OpenID Connect' : 'SAML 2.0')}
            />
          </FormField>

          {form.protocol === 'oidc' ? (
            <div className="space-y-4" data-testid="sso-oidc-fields">
              <div className="space-y-1">
                <Label htmlFor="sso-redirect-uri">Redirect URI (register it at your provider)</Label>
                <CopyField id="sso-redirect-uri" value={redirectUri} copyLabel="Copy the redirect URI" />
              </div>
              <FormField
                id="sso-issuer"
                label="Issuer or discovery URL"
                error={errors.oidcIssuer}
                hint={
                  test.data
                    ? test.data.message
                    : 'For example https://login.microsoftonline.com/<tenant>/v2.0 or https://accounts.google.com'
                }
              >
                <div className="flex gap-2">
                  <Input
                    {...fieldA11y('sso-issuer', errors.oidcIssuer)}
                    value={form.oidcIssuer}
                    onChange={(e) => set('oidcIssuer', e.target.value)}
                    placeholder="https://login.example.com"
                  />
                  <Button type="button" variant="outline" onClick={runTest} disabled={test.isPending}>
                    {test.isPending ? 'Testing…' : 'Test'}
                  </Button>
                </div>
              </FormField>
              <FormField id="sso-client-id" label="Client id" error={errors.oidcClientId}>
                <Input
                  {...fieldA11y('sso-client-id', errors.oidcClientId)}
                  value={form.oidcClientId}
                  onChange={(e) => set('oidcClientId', e.target.value)}
                  autoComplete="off"
                />
              </FormField>
              <FormField
                id="sso-client-secret"
                label="Client secret"
                error={errors.oidcClientSecret}
                hint={saved?.oidcClientSecretSet ? 'A secret is set. Leave blank to keep it.' : undefined}
              >
                <Input
                  {...fieldA11y('sso-client-secret', errors.oidcClientSecret)}
                  type="password"
                  value={form.oidcClientSecret}
                  onChange={(e) => set('oidcClientSecret', e.target.value)}
                  placeholder={saved?.oidcClientSecretSet ? '••••••••' : ''}
                  autoComplete="new-password"
                />
              </FormField>
            </div>
          ) : (
            // The SAML half's fields (decision 062): metadata URL or XML, our entity id, ACS URL and metadata.
            <SamlFields
              organizationId={organizationId}
              saved={saved}
              value={form.saml}
              errors={errors}
              onChange={(patch) => set('saml', { ...form.saml, ...patch })}
            />
          )}

          <FormField id="sso-default-role" label="Role of a person's first sign-in">
            <ChoiceSelect
              id="sso-default-role"
              options={ROLES}
              value={form.defaultRole}
              onChange={(v) => set('defaultRole', v as Form['defaultRole'])}
              onBlur={() => undefined}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              id="sso-admin-claim"
              label="Admin claim or group attribute"
              optional
              error={errors.adminClaim}
              hint="For example groups"
            >
              <Input
                {...fieldA11y('sso-admin-claim', errors.adminClaim)}
                value={form.adminClaim}
                onChange={(e) => set('adminClaim', e.target.value)}
              />
            </FormField>
            <FormField id="sso-admin-value" label="Value that makes an admin" optional error={errors.adminValue}>
              <Input
                {...fieldA11y('sso-admin-value', errors.adminValue)}
                value={form.adminValue}
                onChange={(e) => set('adminValue', e.target.value)}
              />
            </FormField>
          </div>

          <Toggle
            label="Single sign-on is on"
            hint={errors.enabled ?? 'Addresses at your verified domains are offered “Continue with single sign-on”.'}
            checked={form.enabled}
            onChange={(v) => set('enabled', v)}
          />
          <Toggle
            label="Require single sign-on"
            hint={
              errors.requireSso ?? 'Passwords are refused to your domains’ addresses, except the break-glass admin’s.'
            }
            checked={form.requireSso}
            onChange={(v) => set('requireSso', v)}
          />
          <FormField
            id="sso-break-glass"
            label="Break-glass admin (may still use a password)"
            optional
            error={errors.breakGlassUserId}
          >
            <ChoiceSelect
              id="sso-break-glass"
              options={[NO_BREAK_GLASS, ...admins.map((m) => m.userId)]}
              value={form.breakGlassUserId}
              onChange={(v) => set('breakGlassUserId', v)}
              onBlur={() => undefined}
              label={(id) => {
                if (id === NO_BREAK_GLASS) return 'Nobody';
                const m = admins.find((a) => a.userId === id);
                return m ? m.user.email : id;
              }}
            />
          </FormField>

          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save single sign-on'}
            </Button>
            {saved && (
              <Button type="button" variant="outline" onClick={() => setConfirmRemove(true)}>
                Remove
              </Button>
            )}
          </div>
        </form>
        <ConfirmDialog
          open={confirmRemove}
          onOpenChange={setConfirmRemove}
          title="Remove single sign-on?"
          description="People keep their accounts; they sign in with a password (or a reset link) until it is set up again."
          confirmLabel="Remove"
          pendingLabel="Removing…"
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(undefined, {
              onSuccess: () => {
                setConfirmRemove(false);
                toast({ title: 'Single sign-on removed' });
              },
              onError: (err) => {
                setConfirmRemove(false);
                toastFailure('Single sign-on could not be removed', err);
              },
            })
          }
        />
      </CardContent>
    </Card>
  );
}
