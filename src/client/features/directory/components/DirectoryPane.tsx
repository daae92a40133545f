import { CreateScimTokenBody, SCIM_BASE_PATH, type CreatedScimToken, type ScimToken } from '@contract';
import { FolderSync, KeyRound, Plus, Ban } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { CopyField } from '@/components/CopyButton';
import { EmptyState } from '@/components/EmptyState';
import { IconTile } from '@/components/IconTile';
import { ListState } from '@/components/ListState';
import { RowIconButton } from '@/components/RowIconButton';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { formatDateTime, relativeTime } from '@/lib/format';
import { toastFailure } from '@/lib/useErrorToast';
import { useCreateScimToken } from '../api/createScimToken';
import { useRevokeScimToken } from '../api/revokeScimToken';
import { useScimTokens } from '../api/scimTokens';
import { RecentCallsCard } from './RecentCallsCard';

/** A read-only value with its label and Copy button. */
function CopyValue({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="text-xs font-medium text-fg-secondary">
        {label}
      </label>
      <CopyField id={id} value={value} copyLabel={copyLabel} />
    </div>
  );
}

function CreateTokenForm({
  organizationId,
  onCreated,
}: {
  organizationId: string;
  onCreated: (t: CreatedScimToken) => void;
}) {
  const create = useCreateScimToken(organizationId);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The contract's own rule, so the form says what the server would.
    const checked = CreateScimTokenBody.safeParse({ name });
    if (!checked.success) return setError(checked.error.issues[0]?.message);
    setError(undefined);
    create.mutate(checked.data, {
      onSuccess: (created) => {
        setName('');
        onCreated(created);
      },
      onError: (err) => setError(serverMessage(err, 'The token could not be created. Please try again.')),
    });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <div className="flex-1">
        <FormField
          id="scim-token-name"
          label="Token name"
          error={error}
          hint="Which identity provider it is for, like Entra ID"
        >
          <Input
            {...fieldA11y('scim-token-name', error)}
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="Entra ID"
            autoComplete="off"
          />
        </FormField>
      </div>
      <Button type="submit" disabled={create.isPending} className="sm:mt-7">
        <Plus aria-hidden /> {create.isPending ? 'Creating…' : 'Create token'}
      </Button>
    </form>
  );
}

/** The token in clear, shown once after it is created. */
function NewTokenNotice({ token, onDone }: { token: CreatedScimToken; onDone: () => void }) {
  return (
    <div
      role="status"
      className="space-y-3 rounded-lg border border-emerald-200 dark:border-emerald-800 bg-emerald-50/60 dark:bg-emerald-950/30 p-4"
    >
      <p className="text-sm font-medium text-fg">Copy the token for {token.name} now</p>
      <p className="text-sm text-fg-secondary">
        It is shown only this once; Pigeonhole keeps only a fingerprint of it. Paste it as the secret token of your
        identity provider&apos;s provisioning settings.
      </p>
      <CopyValue label="Secret token" value={token.token} copyLabel="Copy the SCIM token" />
      <Button variant="outline" size="sm" onClick={onDone}>
        I have copied it
      </Button>
    </div>
  );
}

function TokenRow({ token, onRevoke }: { token: ScimToken; onRevoke: (t: ScimToken) => void }) {
  const revoked = token.revokedAt !== null;
  return (
    <li className="flex flex-wrap items-center gap-3 px-4 py-3 sm:px-5">
      <IconTile
        icon={KeyRound}
        tone={revoked ? 'muted' : undefined}
        className="size-9 rounded-lg"
        iconClassName="size-4"
      />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="truncate text-sm font-medium text-fg">{token.name}</span>
          <code className="font-mono text-xs text-fg-subtle">{token.prefix}…</code>
          <Badge tone={revoked ? 'neutral' : 'green'}>{revoked ? 'Revoked' : 'Active'}</Badge>
        </p>
        <p className="text-xs break-words text-fg-subtle">
          Created {formatDateTime(token.createdAt)}
          {token.createdBy ? (
            <>
              {' '}
              by <span className="break-all">{token.createdBy.email}</span>
            </>
          ) : null}{' '}
          · {token.lastUsedAt ? `last used ${relativeTime(token.lastUsedAt)}` : 'never used'}
          {revoked && token.revokedAt ? ` · revoked ${formatDateTime(token.revokedAt)}` : ''}
        </p>
      </div>
      {!revoked && (
        <RowIconButton
          label={`Revoke ${token.name}`}
          tooltip="Revoke"
          icon={Ban}
          onClick={() => onRevoke(token)}
          danger
        />
      )}
    </li>
  );
}

/**
 * Settings > Directory (issue 43 §2, decision 060): the SCIM base URL and the bearer tokens an
 * identity provider (Entra ID, Okta) provisions recipients with. Loaded lazily with its tab.
 */
export default function DirectoryPane({ organizationId }: { organizationId: string }) {
  const tokens = useScimTokens(organizationId);
  const revoke = useRevokeScimToken(organizationId);
  const [created, setCreated] = useState<CreatedScimToken | null>(null);
  const [revoking, setRevoking] = useState<ScimToken | null>(null);
  const baseUrl = `${window.location.origin}${SCIM_BASE_PATH}`;

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast({ title: 'Token revoked', description: `${revoking.name} can no longer provision recipients.` });
        setRevoking(null);
      },
      onError: (err) => {
        toastFailure('Error revoking token', err);
        setRevoking(null);
      },
    });
  };

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle>Directory (SCIM provisioning)</CardTitle>
          <CardDescription>
            Let your identity provider keep recipients in step with your directory: people it adds appear at the desk,
            changes follow, and those who leave are marked Left with their waiting mail kept. Fields the directory owns
            cannot be edited at the desk.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          <CopyValue label="SCIM base URL (Tenant URL)" value={baseUrl} copyLabel="Copy the SCIM base URL" />
          <CreateTokenForm organizationId={organizationId} onCreated={setCreated} />
          {created && <NewTokenNotice token={created} onDone={() => setCreated(null)} />}
          <div className="overflow-hidden rounded-lg border border-line">
            <ListState
              data={tokens.data}
              isPending={tokens.isPending}
              isError={tokens.isError}
              error={{ title: 'The tokens could not be loaded', onRetry: () => void tokens.refetch(), retrySize: 'sm' }}
              skeleton={
                <SkeletonRows
                  label="Loading the tokens"
                  className="space-y-3 p-5"
                  row={() => <Skeleton className="h-9 w-full" />}
                />
              }
              empty={
                <EmptyState icon={FolderSync} title="No SCIM tokens yet" className="py-8">
                  Create a token, then give it and the base URL above to Entra ID, Okta or another SCIM client.
                </EmptyState>
              }
            >
              {(list) => (
                <ul aria-label="SCIM tokens" className="divide-y divide-line-subtle">
                  {list.map((token) => (
                    <TokenRow key={token.id} token={token} onRevoke={setRevoking} />
                  ))}
                </ul>
              )}
            </ListState>
          </div>
        </CardContent>
        <ConfirmDialog
          open={Boolean(revoking)}
          onOpenChange={(open) => !open && setRevoking(null)}
          title="Revoke token?"
          description={`${revoking?.name ?? 'The token'} will be refused from its next request: provisioning with it stops until a new token is set in the identity provider. Recipients already provisioned stay.`}
          confirmLabel="Revoke token"
          pendingLabel="Revoking…"
          pending={revoke.isPending}
          onConfirm={confirmRevoke}
        />
      </Card>
      <RecentCallsCard organizationId={organizationId} />
    </div>
  );
}
