import type { PlatformLogEntry, PlatformLogKind } from '@contract';
import { FolderSync, ScrollText, ShieldAlert, ShieldCheck, Webhook, type LucideIcon } from 'lucide-react';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { IconTile } from '@/components/IconTile';
import { formatDateTime, relativeTime } from '@/lib/format';
import { usePlatformLogs } from '../api/platform';
import { logActor, logSummary } from '../logText';
import { useLastPageWhenPastEnd } from '../hooks/useConsoleParams';
import { PlatformListState, type ListPaging } from './PlatformListState';

const KINDS: Array<{ value: PlatformLogKind | 'all'; label: string }> = [
  { value: 'all', label: 'All entries' },
  { value: 'super_admin', label: 'Super admin changes' },
  { value: 'sign_in', label: 'Sign-in failures' },
  { value: 'webhook', label: 'Payment webhooks' },
  { value: 'scim', label: 'Directory (SCIM) refusals' },
];

const icons: Record<PlatformLogKind, { icon: LucideIcon; tone: string }> = {
  super_admin: { icon: ShieldCheck, tone: 'bg-indigo-50 dark:bg-indigo-950/40 text-indigo-600 dark:text-indigo-400' },
  sign_in: { icon: ShieldAlert, tone: 'bg-amber-50 dark:bg-amber-950/40 text-amber-700 dark:text-amber-300' },
  webhook: { icon: Webhook, tone: 'bg-red-50 dark:bg-red-950/40 text-red-600 dark:text-red-400' },
  scim: { icon: FolderSync, tone: 'bg-orange-50 dark:bg-orange-950/40 text-orange-700 dark:text-orange-300' },
};

/** "5 minutes ago · Nov 24, 2026, 9:16 PM": how long ago, and the moment itself. */
function WhenText({ iso }: { iso: string }) {
  const relative = relativeTime(iso);
  const exact = formatDateTime(iso);
  return (
    <time dateTime={iso}>
      {relative}
      {relative !== exact && <span className="max-sm:hidden"> · {exact}</span>}
    </time>
  );
}

function LogRow({ entry }: { entry: PlatformLogEntry }) {
  const { icon, tone } = icons[entry.kind];
  return (
    <li className="flex items-start gap-3 px-5 py-3.5">
      <IconTile icon={icon} className={`size-8 rounded-full ${tone}`} iconClassName="size-4" />
      <div className="min-w-0 pt-0.5">
        <p className="text-sm break-words text-fg-secondary">
          <span className="font-medium text-fg">{logActor(entry)}</span> {logSummary(entry)}
        </p>
        <p className="text-xs text-fg-subtle">
          <WhenText iso={entry.createdAt} />
          {typeof entry.details?.ip === 'string' && <> · from {entry.details.ip}</>}
          {entry.details?.quotaReached === true && (
            <> · the hour’s last entry from this source: further ones are not logged until the hour ends</>
          )}
        </p>
      </div>
    </li>
  );
}

/** The platform log: every operator change, repeated failed sign-ins and refused payment webhooks. */
export function SystemLogsTab({
  search,
  kind,
  onKind,
  ...paging
}: {
  search: string;
  kind: PlatformLogKind | undefined;
  onKind: (kind: PlatformLogKind | 'all') => void;
} & ListPaging) {
  const list = usePlatformLogs(kind, search, paging.page);
  useLastPageWhenPastEnd(list, paging.page, paging.onPage);

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line-subtle px-5 py-3">
        <p className="text-sm text-fg-subtle">Newest first. The search box above searches who, what and whom.</p>
        <Select value={kind ?? 'all'} onValueChange={(v) => onKind(v as PlatformLogKind | 'all')}>
          <SelectTrigger aria-label="Kind of entry" className="w-52">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {KINDS.map((k) => (
              <SelectItem key={k.value} value={k.value}>
                {k.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <PlatformListState
        list={list}
        label="log entries"
        pagerLabel="Log"
        search={search}
        paging={paging}
        emptyIcon={ScrollText}
        emptyTitle={
          kind ? `No ${KINDS.find((k) => k.value === kind)!.label.toLowerCase()} logged` : 'Nothing logged yet'
        }
        emptyHint="Plan changes, granted access, repeated failed sign-ins and refused payment webhooks are listed here."
      >
        {(items) => (
          <ol
            aria-label="System logs"
            aria-busy={list.isPlaceholderData || undefined}
            className="divide-y divide-line-subtle"
          >
            {items.map((entry) => (
              <LogRow key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
      </PlatformListState>
    </>
  );
}
