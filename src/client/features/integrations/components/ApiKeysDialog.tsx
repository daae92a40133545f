import { CreateApiKeyBody, type Integration } from '@contract';
import { KeyRound, Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { LoadError } from '@/components/ListState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { formatDate, formatDateTime, relativeTime } from '@/lib/format';
import { checkForm } from '@/lib/forms';
import { toastFailure } from '@/lib/useErrorToast';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, type ApiKey, type CreatedApiKey } from '../api/integrations';
import { SecretBox } from './SecretReveal';
import { IntegrationDialog, type ChosenIntegrationProps } from './IntegrationDialog';

function KeyList({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  return (
    <ul aria-label="API keys" className="divide-y divide-line-subtle">
      {keys.map((key) => (
        <li key={key.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
          <div className="min-w-0 flex-1">
            <p className="flex items-center gap-2 text-sm font-medium text-fg">
              <span className="truncate">{key.name}</span>
              {key.revokedAt && <Badge>Revoked</Badge>}
            </p>
            <p className="text-xs text-fg-subtle">
              <span className="font-mono">{key.prefix}…</span> · created{' '}
              <time dateTime={key.createdAt} title={formatDateTime(key.createdAt)}>
                {formatDate(key.createdAt)}
              </time>{' '}
              · {key.lastUsedAt ? <>last used {relativeTime(key.lastUsedAt)}</> : 'never used'}
            </p>
          </div>
          {!key.revokedAt && (
            <Button
              variant="outline"
              size="sm"
              className="text-red-600 dark:text-red-400 hover:bg-red-50 dark:hover:bg-red-950/40 hover:text-red-700 dark:hover:text-red-300"
              onClick={() => onRevoke(key)}
              aria-label={`Revoke ${key.name}`}
            >
              Revoke
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

function ApiKeysPanel({ organizationId, integration }: { organizationId: string; integration: Integration }) {
  const nameId = useId();
  const keys = useApiKeys(organizationId, integration.id, true);
  const create = useCreateApiKey(organizationId, integration.id);
  const revoke = useRevokeApiKey(organizationId, integration.id);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(CreateApiKeyBody, { name });
    if (checked.errors) {
      setProblem(checked.errors.name ?? null);
      return;
    }
    create.mutate(checked.data.name, {
      onSuccess: (key) => {
        setCreated(key);
        setName('');
      },
      onError: (err) => toastFailure('Failed to create API key', err),
    });
  };

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast({ title: 'API key revoked', description: `${revoking.name} no longer works.` });
        setRevoking(null);
      },
      onError: (err) => toastFailure('Failed to revoke API key', err),
    });
  };

  return (
    <div className="space-y-5">
      {created ? (
        <div className="space-y-3 rounded-lg border border-line p-4">
          <p className="text-sm font-medium text-fg">New key: {created.name}</p>
          <SecretBox label="API key" value={created.key} />
          <div className="flex justify-end">
            <Button size="sm" onClick={() => setCreated(null)}>
              I have copied it
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-1.5">
          <Label htmlFor={nameId}>New key</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id={nameId}
              value={name}
              placeholder="e.g. Building management system"
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${nameId}-error` : undefined}
              onChange={(event) => {
                setName(event.target.value);
                setProblem(null);
              }}
            />
            <Button type="submit" disabled={create.isPending}>
              <Plus aria-hidden /> {create.isPending ? 'Creating…' : 'Create key'}
            </Button>
          </div>
          {problem && (
            <p id={`${nameId}-error`} className="text-sm text-red-600 dark:text-red-400">
              {problem}
            </p>
          )}
        </form>
      )}

      <div>
        <h3 className="mb-1 text-xs font-semibold tracking-wide text-fg-subtle uppercase">Keys</h3>
        {keys.isPending ? (
          <SkeletonRows
            label="Loading keys"
            className="space-y-2 py-2"
            row={() => <Skeleton className="h-10 w-full" />}
          />
        ) : keys.isError ? (
          <LoadError
            title="The keys could not be loaded"
            className="py-6"
            retryIcon={false}
            onRetry={() => void keys.refetch()}
          />
        ) : keys.data.length === 0 ? (
          <EmptyState icon={KeyRound} title="No keys yet" className="py-6">
            Create a key for each system that calls the API, so you can revoke one without touching the others.
          </EmptyState>
        ) : (
          <KeyList keys={keys.data} onRevoke={setRevoking} />
        )}
      </div>
      <p className="text-xs text-fg-subtle">
        Send the key as <span className="font-mono">Authorization: Bearer &lt;key&gt;</span>. The API reference is at{' '}
        <a
          href="/api/docs"
          target="_blank"
          rel="noreferrer"
          className="font-medium text-indigo-600 dark:text-indigo-400 hover:underline"
        >
          /api/docs
        </a>
        .
      </p>

      <ConfirmDialog
        open={Boolean(revoking)}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke API key"
        description={
          revoking
            ? `Systems using ${revoking.name} (${revoking.prefix}…) will be refused from now on. This cannot be undone.`
            : undefined
        }
        confirmLabel="Revoke key"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        onConfirm={confirmRevoke}
      />
    </div>
  );
}

/** An API integration's keys: create (shown once), list with prefix and last use, revoke. */
export function ApiKeysDialog({ organizationId, integration, onClose }: ChosenIntegrationProps) {
  return (
    <IntegrationDialog
      integration={integration}
      onClose={onClose}
      title="API keys"
      description="Each key lets another system act for this organization with the member role."
      className="sm:max-w-xl"
    >
      {(chosen) => <ApiKeysPanel organizationId={organizationId} integration={chosen} />}
    </IntegrationDialog>
  );
}
