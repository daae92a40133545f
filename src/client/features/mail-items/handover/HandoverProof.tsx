import { IDENTIFIED_BY_LABELS } from '@contract';
import { Skeleton } from '@/components/ui/skeleton';
import { RetryLink } from '@/components/ListState';
import { formatDateTime } from '@/lib/format';
import { useHandover } from '../api/handOver';

/** How an item was handed over (decision 031): who collected, how identified, the signature and photo. */
export function HandoverProof({ organizationId, handoverId }: { organizationId: string; handoverId: string }) {
  const proof = useHandover(organizationId, handoverId);
  if (proof.isPending) return <Skeleton className="h-24 w-full" />;
  if (!proof.data) {
    return (
      <p className="text-sm text-fg-subtle">
        The proof could not be loaded. <RetryLink onRetry={() => void proof.refetch()} />
      </p>
    );
  }
  const h = proof.data;
  const staff = h.handedOverBy ? `${h.handedOverBy.firstName} ${h.handedOverBy.lastName}`.trim() : null;
  return (
    <div className="space-y-2 text-sm">
      <p>
        <span className="font-medium text-fg">{h.collectorName}</span>
        <span className="text-fg-muted"> · {IDENTIFIED_BY_LABELS[h.identifiedBy]}</span>
      </p>
      {h.proxyReason && <p className="text-fg-muted">Not on their list: {h.proxyReason}</p>}
      <p className="text-xs text-fg-subtle">
        {formatDateTime(h.createdAt)}
        {staff && ` · handed over by ${staff}`}
        {h.apiKeyName && ` · through the API key “${h.apiKeyName}”`}
      </p>
      <div className="flex flex-wrap gap-2">
        {h.signatureUrl && (
          <img
            src={`${h.signatureUrl}/thumbnail`}
            alt={`Signature of ${h.collectorName}`}
            className="h-16 rounded border border-line bg-white p-1"
          />
        )}
        {h.photoUrl && (
          <a href={h.photoUrl} target="_blank" rel="noreferrer">
            <img
              src={`${h.photoUrl}/thumbnail`}
              alt={`Photo of ${h.collectorName}`}
              className="size-16 rounded border border-line object-cover"
            />
          </a>
        )}
      </div>
    </div>
  );
}
