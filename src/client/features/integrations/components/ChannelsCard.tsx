import { ArrowRight, CheckCircle2, Plug } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { useIntegrations } from '../api/integrations';
import { INTEGRATION_KINDS } from '../integrationTypes';

/** Settings > Notifications: the way to /integrations, with the channels this organization has set up. */
export function ChannelsCard({ organizationId }: { organizationId: string }) {
  const { data, isPending, isError } = useIntegrations(organizationId);
  const kinds = INTEGRATION_KINDS.filter((kind) => kind.type !== 'api');
  const anyActive = data?.some((i) => i.isActive && i.type !== 'api');
  return (
    <Card className="p-5 sm:p-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex gap-4">
          <span className="hidden size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-50 dark:bg-indigo-950/40 text-indigo-600 dark:text-indigo-400 sm:flex">
            <Plug aria-hidden className="size-4.5" />
          </span>
          <div>
            <h2 className="text-base font-semibold text-fg">Email, SMS and webhooks</h2>
            <p className="text-sm text-fg-subtle">
              {isPending || anyActive
                ? 'The channels arrival messages, reminders and receipts go out through.'
                : 'Send from your own mail server, and add SMS or webhooks for your other systems.'}
            </p>
          </div>
        </div>
        <Link
          href="/integrations"
          className="inline-flex h-9 shrink-0 items-center justify-center gap-2 self-start rounded-lg border border-line-strong bg-surface px-3 text-sm font-medium text-fg-secondary shadow-sm hover:bg-surface-subtle focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
        >
          Manage integrations <ArrowRight aria-hidden className="size-4" />
        </Link>
      </div>
      <ul aria-label="Channels" className="mt-4 flex flex-wrap gap-2 sm:pl-13">
        {kinds.map((kind) => {
          const of = data?.filter((i) => i.type === kind.type) ?? [];
          const on = of.some((i) => i.isActive);
          return (
            <li
              key={kind.type}
              className={cn(
                'flex items-center gap-2 rounded-lg border px-3 py-1.5 text-sm',
                on
                  ? 'border-emerald-200 dark:border-emerald-800 bg-emerald-50/60 dark:bg-emerald-950/40 text-fg'
                  : 'border-line text-fg-subtle',
              )}
            >
              <kind.icon
                aria-hidden
                className={cn('size-4', on ? 'text-emerald-600 dark:text-emerald-400' : 'text-fg-faint')}
              />
              {kind.label}
              {isPending ? (
                <Skeleton className="h-4 w-12" />
              ) : isError ? null : on ? (
                <Badge tone="green" className="gap-1 px-1.5">
                  <CheckCircle2 aria-hidden className="size-3" /> On
                </Badge>
              ) : (
                <span className="text-xs text-fg-subtle">{of.length ? 'Off' : 'Not set up'}</span>
              )}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
