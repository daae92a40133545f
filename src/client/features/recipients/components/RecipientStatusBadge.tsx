import type { Recipient } from '@contract';
import { Badge } from '@/components/ui/badge';

export function RecipientStatusBadge({ active }: { active: boolean }) {
  return <Badge tone={active ? 'green' : 'neutral'}>{active ? 'Active' : 'Inactive'}</Badge>;
}

const FEED_LABEL = { scim: 'SCIM provisioning', roster: 'the roster import' } as const;

/**
 * A recipient's status at the desk: "Left" when their directory said they left (their waiting
 * items stay), else active or not; and a "Directory" mark on one a directory feed keeps
 * (decision 060), whose owned fields the desk cannot edit.
 */
export function RecipientStatusBadges({
  recipient,
}: {
  recipient: Pick<Recipient, 'isActive' | 'leftAt' | 'managedBy'>;
}) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      {recipient.leftAt ? (
        <Badge tone="yellow" data-status="left" title={`Left on ${new Date(recipient.leftAt).toLocaleDateString()}`}>
          Left
        </Badge>
      ) : (
        <RecipientStatusBadge active={recipient.isActive} />
      )}
      {recipient.managedBy && (
        <Badge tone="indigo" data-managed-by={recipient.managedBy} title={`Kept by ${FEED_LABEL[recipient.managedBy]}`}>
          Directory
        </Badge>
      )}
    </span>
  );
}
