import { DOMAIN_TXT_LABEL, normaliseDomain, type OrganizationDomain } from '@contract';
import { Globe, Plus, ShieldCheck, Trash2 } from 'lucide-react';
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
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { ApiError, serverMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { toastFailure } from '@/lib/useErrorToast';
import { useClaimDomain } from '../api/claimDomain';
import { useDomains } from '../api/domains';
import { useRemoveDomain } from '../api/removeDomain';
import { useVerifyDomain } from '../api/verifyDomain';

/** A read-only value of the TXT record with its Copy button. */
function RecordValue({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="text-xs font-medium text-fg-secondary">
        {label}
      </label>
      <CopyField id={id} value={value} copyLabel={`Copy the record's ${label.toLowerCase()}`} />
    </div>
  );
}

function AddDomainForm({ organizationId }: { organizationId: string }) {
  const claim = useClaimDomain(organizationId);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = normaliseDomain(value);
    if ('error' in checked) return setError(checked.error);
    setError(undefined);
    claim.mutate(
      { domain: checked.domain },
      {
        onSuccess: (created) => {
          setValue('');
          toast({ title: 'Domain added', description: `Publish its TXT record, then verify ${created.domain}.` });
        },
        // The server's reasons (already added, verified by another organization) read as the field's.
        onError: (err) => setError(serverMessage(err, 'The domain could not be added. Please try again.')),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <div className="flex-1">
        <FormField
          id="domain-name"
          label="Domain"
          error={error}
          hint="Your organization's email domain, like example.com"
        >
          <Input
            {...fieldA11y('domain-name', error)}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            placeholder="example.com"
            autoComplete="off"
            spellCheck={false}
          />
        </FormField>
      </div>
      <Button type="submit" disabled={claim.isPending} className="sm:mt-7">
        <Plus aria-hidden /> {claim.isPending ? 'Adding…' : 'Add domain'}
      </Button>
    </form>
  );
}

interface DomainRowProps {
  domain: OrganizationDomain;
  organizationId: string;
  onRemove: (domain: OrganizationDomain) => void;
}

function DomainRow({ domain, organizationId, onRemove }: DomainRowProps) {
  const verify = useVerifyDomain(organizationId);
  const [problem, setProblem] = useState<string>();
  const check = () => {
    setProblem(undefined);
    verify.mutate(domain.id, {
      onSuccess: (result) => {
        if (result.status === 'verified')
          toast({ title: 'Domain verified', description: `${result.domain} is yours.` });
      },
      onError: (err) =>
        setProblem(
          err instanceof ApiError && err.status === 429 && err.retryAfterSeconds
            ? `${serverMessage(err, 'Too many checks.')} (${err.retryAfterSeconds} s)`
            : serverMessage(err, 'The check could not be made. Please try again.'),
        ),
    });
  };
  const verified = domain.status === 'verified';
  return (
    <li className="space-y-3 px-4 py-4 sm:px-5">
      <div className="flex flex-wrap items-center gap-3">
        <IconTile
          icon={verified ? ShieldCheck : Globe}
          tone={verified ? undefined : 'muted'}
          className={cn(
            'size-9 rounded-lg',
            verified && 'bg-emerald-50 dark:bg-emerald-950/40 text-emerald-600 dark:text-emerald-400',
          )}
          iconClassName="size-4"
        />
        {/* At least 12rem for the name, so on a phone the actions wrap below it rather than
            squeezing the domain to a few letters. */}
        <div className="min-w-48 flex-1">
          <p className="flex flex-wrap items-center gap-2">
            <span className="break-all text-sm font-medium text-fg">{domain.domain}</span>
            <Badge tone={verified ? 'green' : 'yellow'} data-status={domain.status}>
              {verified ? 'Verified' : 'Pending'}
            </Badge>
          </p>
          <p className="text-xs text-fg-subtle">
            {verified && domain.verifiedAt
              ? `Verified ${formatDateTime(domain.verifiedAt)} ${
                  domain.verifiedBy === 'dns' ? 'by its DNS record' : 'by Pigeonhole support'
                }`
              : `Added ${formatDateTime(domain.createdAt)}; waiting for its DNS record`}
          </p>
        </div>
        <div className="ml-auto flex shrink-0 items-center gap-1">
          {!verified && (
            <Button variant="outline" size="sm" onClick={check} disabled={verify.isPending} className="mr-1">
              {verify.isPending ? (
                <>
                  <Spinner className="size-4" label={`Checking the DNS record of ${domain.domain}`} /> Checking DNS…
                </>
              ) : (
                <>
                  <ShieldCheck aria-hidden /> Verify
                </>
              )}
            </Button>
          )}
          <RowIconButton
            label={`Remove ${domain.domain}`}
            tooltip="Remove"
            icon={Trash2}
            onClick={() => onRemove(domain)}
            danger
          />
        </div>
      </div>
      {!verified && (
        <div className="space-y-3 rounded-lg border border-line bg-surface-muted/50 p-3">
          <p className="text-sm text-fg-secondary">
            At your DNS provider, add a <strong className="font-semibold">TXT</strong> record with this name and value,
            then select Verify. A new record can take a few minutes to be seen.
          </p>
          <div className="grid gap-3">
            <RecordValue label="Name" value={domain.txtRecordName} />
            <RecordValue label="Value" value={domain.txtRecordValue} />
          </div>
          <p className="text-xs text-fg-subtle">
            Some providers add the domain to the name themselves: then enter only{' '}
            <code className="font-mono">{DOMAIN_TXT_LABEL}</code>.
          </p>
        </div>
      )}
      {problem && (
        <p
          role="alert"
          className="rounded-lg border border-red-200 dark:border-red-800 bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-700 dark:text-red-300"
        >
          {problem}
        </p>
      )}
    </li>
  );
}

/**
 * Settings > Single sign-on > Verified domains (issue 43, decision 058): an admin adds the
 * organization's email domains and proves each with a DNS TXT record. Only a verified domain's
 * addresses will be signed in through the organization's identity provider.
 */
export function DomainsPane({ organizationId }: { organizationId: string }) {
  const domains = useDomains(organizationId);
  const remove = useRemoveDomain(organizationId);
  const [removing, setRemoving] = useState<OrganizationDomain | null>(null);

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        toast({ title: 'Domain removed', description: `${removing.domain} has been removed.` });
        setRemoving(null);
      },
      onError: (err) => {
        toastFailure('Error removing domain', err);
        setRemoving(null);
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Verified domains</CardTitle>
        <CardDescription>
          Prove that your organization owns its email domains. Single sign-on signs in only addresses at a verified
          domain, and a domain is verified by one organization at most.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <AddDomainForm organizationId={organizationId} />
        <div className="overflow-hidden rounded-lg border border-line">
          <ListState
            data={domains.data}
            isPending={domains.isPending}
            isError={domains.isError}
            error={{
              title: 'The domains could not be loaded',
              onRetry: () => void domains.refetch(),
              retrySize: 'sm',
            }}
            skeleton={
              <SkeletonRows
                label="Loading the domains"
                className="space-y-3 p-5"
                row={() => <Skeleton className="h-9 w-full" />}
              />
            }
            empty={
              <EmptyState icon={Globe} title="No domains yet" className="py-8">
                Add your organization&apos;s email domain, like example.com, then prove it with a DNS record.
              </EmptyState>
            }
          >
            {(list) => (
              <ul aria-label="Email domains" className="divide-y divide-line-subtle">
                {list.map((domain) => (
                  <DomainRow key={domain.id} domain={domain} organizationId={organizationId} onRemove={setRemoving} />
                ))}
              </ul>
            )}
          </ListState>
        </div>
      </CardContent>
      <ConfirmDialog
        open={Boolean(removing)}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove domain?"
        description={
          removing?.status === 'verified'
            ? `${removing.domain} will no longer be verified for your organization: single sign-on stops signing its addresses in, and proving it again needs a new DNS record.`
            : `${removing?.domain ?? 'The domain'} will be removed with its verification record.`
        }
        confirmLabel="Remove domain"
        pendingLabel="Removing…"
        pending={remove.isPending}
        onConfirm={confirmRemove}
      />
    </Card>
  );
}
