import { Badge } from '@/components/ui/badge';
import { displayStatus } from '../mailItemFormat';

const tones = { pending: 'yellow', notified: 'blue', delivered: 'green', returned: 'neutral' } as const;
const labels = { pending: 'Pending', notified: 'Notified', delivered: 'Delivered', returned: 'Returned' } as const;

/** Spec §2: Pending yellow, Notified blue, Delivered green; an unknown status shows as pending. */
export function MailStatusBadge({ status }: { status: string }) {
  const shown = displayStatus(status);
  return <Badge tone={tones[shown]}>{labels[shown]}</Badge>;
}

/** Arrived more than 72 hours ago and not handed over. */
export function OverdueBadge() {
  return <Badge className="border-red-200 bg-red-50 text-red-700">Overdue</Badge>;
}
