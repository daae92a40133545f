import { AlertTriangle, Armchair } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { IconTile } from '@/components/IconTile';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';

/** Spec §9: maxUsers -1 is unlimited; available seats never drop below 0. */
export function seatsAvailable(maxUsers: number, used: number): number | null {
  return maxUsers < 0 ? null : Math.max(0, maxUsers - used);
}

interface SeatSummaryProps {
  maxUsers: number;
  /** Members now; undefined while the list loads. */
  used: number | undefined;
  pendingInvitations: number | undefined;
}

function Figure({ label, value, tone }: { label: string; value: string; tone?: 'warning' }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-fg-subtle uppercase">{label}</dt>
      <dd
        className={cn(
          'mt-1 text-2xl font-semibold text-fg',
          tone === 'warning' && 'text-amber-700 dark:text-amber-300',
        )}
      >
        {value}
      </dd>
    </div>
  );
}

/** Members against the plan's seats, and a clear note when no seat is free. */
export function SeatSummary({ maxUsers, used, pendingInvitations }: SeatSummaryProps) {
  const unlimited = maxUsers < 0;
  const available = used === undefined ? undefined : seatsAvailable(maxUsers, used);
  const full = available === 0;
  const percent = unlimited || used === undefined || maxUsers === 0 ? 0 : Math.min(100, (used / maxUsers) * 100);

  return (
    <Card className="p-5 sm:p-6" role="group" aria-label="Seats">
      <div className="flex items-start gap-4">
        <IconTile icon={Armchair} tone="indigo" className="hidden size-10 rounded-lg sm:flex" iconClassName="size-5" />
        <div className="min-w-0 flex-1">
          <dl className="grid grid-cols-3 gap-4">
            {used === undefined ? (
              Array.from({ length: 3 }, (_, i) => (
                <div key={i} className="space-y-2">
                  <Skeleton className="h-3 w-16" />
                  <Skeleton className="h-7 w-10" />
                </div>
              ))
            ) : (
              <>
                <Figure label="Members" value={String(used)} />
                <Figure label="Seats" value={unlimited ? 'Unlimited' : String(maxUsers)} />
                <Figure
                  label="Available"
                  value={available === null ? 'Unlimited' : String(available)}
                  tone={full ? 'warning' : undefined}
                />
              </>
            )}
          </dl>
          {!unlimited && (
            <div
              className="mt-4 h-2 overflow-hidden rounded-full bg-surface-muted"
              role="progressbar"
              aria-label="Seats used"
              aria-valuemin={0}
              aria-valuemax={maxUsers}
              aria-valuenow={used ?? 0}
            >
              <div
                className={cn('h-full rounded-full transition-all', full ? 'bg-amber-500' : 'bg-indigo-600')}
                style={{ width: `${percent}%` }}
              />
            </div>
          )}
          <p className="mt-3 text-sm text-fg-subtle">
            {unlimited ? 'Your plan has no seat limit.' : `${used ?? '…'} of ${maxUsers} seats used.`}{' '}
            {pendingInvitations
              ? `${pendingInvitations} pending ${pendingInvitations === 1 ? 'invitation takes' : 'invitations take'} a seat only when accepted.`
              : 'Pending invitations take a seat only when accepted.'}
          </p>
        </div>
      </div>
      {full && (
        <p
          role="status"
          className="mt-4 flex items-start gap-2 rounded-lg border border-amber-200 dark:border-amber-800 bg-amber-50 dark:bg-amber-950/40 px-3 py-2 text-sm text-amber-900 dark:text-amber-300"
        >
          <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
          <span>
            <strong className="font-semibold">No seats are free.</strong> You can still send invitations, but nobody can
            join until a seat is freed or more seats are added in Billing and Plans.
          </span>
        </p>
      )}
    </Card>
  );
}
