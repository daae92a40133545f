import { ShieldCheck } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { formatLongDate } from '@/lib/format';
import { toastFailure } from '@/lib/useErrorToast';
import { usePlatformOrganizationDomains, useVerifyPlatformDomain } from '../api/domains';

/**
 * The organization's email domains in Manage organization (decision 058): a pending one can be
 * verified here when its admins proved ownership another way (a support request with evidence).
 */
export function OrganizationDomains({ organizationId }: { organizationId: string }) {
  const domains = usePlatformOrganizationDomains(organizationId);
  const verify = useVerifyPlatformDomain(organizationId);
  const verifying = verify.isPending ? verify.variables : undefined;

  return (
    <section aria-labelledby="manage-domains" className="mt-5">
      <h3 id="manage-domains" className="text-sm font-semibold text-fg">
        Email domains
      </h3>
      {domains.isPending ? (
        <Skeleton className="mt-2 h-10 w-full" />
      ) : domains.isError ? (
        <p className="mt-1 text-sm text-red-600 dark:text-red-400">The domains could not be loaded.</p>
      ) : domains.data.length === 0 ? (
        <p className="mt-1 text-sm text-fg-subtle">No domains added in Settings → Single sign-on.</p>
      ) : (
        <ul
          aria-label="Email domains"
          className="mt-2 divide-y divide-line-subtle rounded-lg border border-line text-sm"
        >
          {domains.data.map((domain) => (
            <li key={domain.id} className="flex flex-wrap items-center gap-2 px-4 py-2.5">
              <span className="min-w-0 flex-1 truncate font-medium text-fg">{domain.domain}</span>
              {domain.status === 'verified' ? (
                <Badge tone="green" data-status="verified">
                  Verified{domain.verifiedAt ? ` ${formatLongDate(domain.verifiedAt)}` : ''}
                </Badge>
              ) : (
                <>
                  <Badge tone="yellow" data-status="pending">
                    Pending
                  </Badge>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={verify.isPending}
                    aria-label={`Verify ${domain.domain}`}
                    onClick={() =>
                      verify.mutate(domain.id, {
                        onSuccess: (result) =>
                          toast({
                            title: 'Domain verified',
                            description: `${result.domain} of ${result.organizationName}`,
                          }),
                        onError: (err) => toastFailure('The domain could not be verified', err),
                      })
                    }
                  >
                    <ShieldCheck aria-hidden /> {verifying === domain.id ? 'Verifying…' : 'Verify'}
                  </Button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-xs text-fg-subtle">
        An organization proves a domain with a DNS record. Verify one here only when it has shown ownership another way;
        a domain verified by another organization is refused. The organization’s admins see it in their activity log.
      </p>
    </section>
  );
}
