import type { RosterRun, RosterSource } from '@contract';
import { ClipboardList, History, Play, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { formatDateTime } from '@/lib/format';
import { toastFailure } from '@/lib/useErrorToast';
import { useDecideRosterRun } from '../api/decideRun';
import { useRosterPreview } from '../api/preview';
import { useRemoveRosterSource } from '../api/removeSource';
import { useRunRosterNow } from '../api/runNow';
import { ROSTER_RUNS_PAGE, useRosterRuns } from '../api/runs';
import { useRosterSources } from '../api/sources';
import { RosterSourceForm } from './RosterSourceForm';

const STATUS: Record<RosterRun['status'], { label: string; tone: 'neutral' | 'yellow' | 'green' | 'red' | 'blue' }> = {
  fetched: { label: 'Fetched', tone: 'blue' },
  awaiting_approval: { label: 'Waiting for approval', tone: 'yellow' },
  applied: { label: 'Applied', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  rejected: { label: 'Rejected', tone: 'neutral' },
};

const countParts = (c: RosterRun['counts']) => [
  `${c.added} added`,
  `${c.changed} changed`,
  `${c.moved} moved`,
  `${c.left} left`,
  `${c.unchanged} unchanged`,
  ...(c.errors > 0 ? [`${c.errors} row error${c.errors === 1 ? '' : 's'}`] : []),
];
const countsText = (c: RosterRun['counts']) => countParts(c).join(' · ');

/**
 * The counts, each kept on one line with its separator ("1 left ·", never "1" and "left" apart,
 * nor a line starting with "·") on a narrow screen.
 */
function Counts({ counts }: { counts: RosterRun['counts'] }) {
  const parts = countParts(counts);
  return (
    <>
      {parts.map((part, i) => (
        <span key={part}>
          <span className="whitespace-nowrap">{i < parts.length - 1 ? `${part} ·` : part}</span>
          {i < parts.length - 1 ? ' ' : null}
        </span>
      ))}
    </>
  );
}

/** A waiting run's preview: who would be added, changed, moved and marked as left; approve or reject. */
function RunPreview({
  organizationId,
  runId,
  onClose,
}: {
  organizationId: string;
  runId: string;
  onClose: () => void;
}) {
  const preview = useRosterPreview(organizationId, runId);
  const decide = useDecideRosterRun(organizationId);
  if (preview.isPending)
    return <SkeletonRows label="Loading the roster" rows={4} row={() => <Skeleton className="h-6 w-full" />} />;
  if (preview.isError || !preview.data) return <p className="text-sm text-red-600">The preview could not be loaded.</p>;
  const p = preview.data;
  const name = (x: { firstName: string; lastName: string; unit: string | null }) =>
    `${x.firstName} ${x.lastName}${x.unit ? ` (${x.unit})` : ''}`;
  const section = (title: string, items: string[]) =>
    items.length === 0 ? null : (
      <section>
        <h4 className="text-sm font-medium">
          {title} ({items.length})
        </h4>
        <ul className="mt-1 max-h-40 overflow-auto text-sm text-fg-secondary">
          {items.slice(0, 200).map((item, i) => (
            <li key={i}>{item}</li>
          ))}
          {items.length > 200 ? <li>and {items.length - 200} more</li> : null}
        </ul>
      </section>
    );
  const waiting = p.run.status === 'awaiting_approval';
  const act = (decision: 'approve' | 'reject') =>
    decide.mutate(
      { runId, decision },
      {
        onSuccess: () => {
          toast({ title: decision === 'approve' ? 'Roster applied' : 'Run rejected' });
          onClose();
        },
        onError: (err) => toastFailure('The run could not be decided', err),
      },
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Preview</CardTitle>
        <CardDescription>
          {p.reason === 'first_run'
            ? 'The first run of a roster waits for your approval.'
            : p.reason === 'share_left'
              ? 'This run would mark more residents as left than your approval share allows.'
              : 'What this run changed.'}{' '}
          <Counts counts={p.run.counts} />
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {section(
          'Added',
          p.added.map((x) => `${name(x)}${x.adoptsRecipientId ? ' — takes over the recipient with this email' : ''}`),
        )}
        {section(
          'Changed',
          p.changed.map((x) => `${name(x)}${x.returns ? ' — returns' : ''}: ${x.fields.join(', ')}`),
        )}
        {section(
          'Moved',
          p.moved.map((x) => `${name(x)} from ${x.fromUnit ?? 'no unit'}`),
        )}
        {section('Left', p.left.map(name))}
        {section(
          'Row errors',
          p.run.rowErrors.map((e) => `Line ${e.line}: ${e.messages.join('; ')}`),
        )}
        <div className="flex flex-wrap gap-2">
          {waiting ? (
            <>
              <Button onClick={() => act('approve')} disabled={decide.isPending}>
                Approve and apply
              </Button>
              <Button variant="outline" onClick={() => act('reject')} disabled={decide.isPending}>
                Reject
              </Button>
            </>
          ) : null}
          <Button variant="ghost" onClick={onClose}>
            Close
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function RunsCard({ organizationId, onPreview }: { organizationId: string; onPreview: (id: string) => void }) {
  const [offset, setOffset] = useState(0);
  const runs = useRosterRuns(organizationId, offset);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Runs</CardTitle>
        <CardDescription>Each run with its counts, status and errors, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        {runs.isPending ? (
          <SkeletonRows label="Loading roster runs" rows={3} row={() => <Skeleton className="h-6 w-full" />} />
        ) : runs.isError ? (
          <p className="text-sm text-red-600">The runs could not be loaded.</p>
        ) : runs.data.total === 0 ? (
          <EmptyState icon={History} title="No runs yet">
            Run the roster now to fetch the file and see what it would change.
          </EmptyState>
        ) : (
          <ul className="divide-y divide-line" aria-label="Roster runs">
            {runs.data.runs.map((run) => (
              <li key={run.id} className="flex items-start justify-between gap-3 py-3 sm:items-center">
                <div className="min-w-0">
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge tone={STATUS[run.status].tone}>{STATUS[run.status].label}</Badge>
                    <span className="text-sm">{formatDateTime(run.startedAt)}</span>
                    <span className="text-xs text-fg-secondary">
                      {run.trigger === 'manual' ? 'run now' : 'scheduled'}
                      {run.attempt > 1 ? `, try ${run.attempt}` : ''}
                    </span>
                  </div>
                  <p className="text-sm text-fg-secondary">
                    {run.status === 'failed' ? run.errorText : <Counts counts={run.counts} />}
                  </p>
                </div>
                {run.status !== 'failed' ? (
                  <Button variant="outline" size="sm" className="shrink-0" onClick={() => onPreview(run.id)}>
                    {run.status === 'awaiting_approval' ? 'Review' : 'Details'}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {runs.data && runs.data.total > ROSTER_RUNS_PAGE ? (
          <div className="mt-3 flex gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={offset === 0}
              onClick={() => setOffset(offset - ROSTER_RUNS_PAGE)}
            >
              Newer
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={offset + ROSTER_RUNS_PAGE >= runs.data.total}
              onClick={() => setOffset(offset + ROSTER_RUNS_PAGE)}
            >
              Older
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function SourceSummary({ organizationId, source }: { organizationId: string; source: RosterSource }) {
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [previewing, setPreviewing] = useState<string>();
  const run = useRunRosterNow(organizationId);
  const remove = useRemoveRosterSource(organizationId);
  if (editing)
    return <RosterSourceForm organizationId={organizationId} source={source} onDone={() => setEditing(false)} />;
  const where =
    source.kind === 'https' ? source.url : `sftp://${source.username}@${source.host}:${source.port}${source.path}`;
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle>Roster source</CardTitle>
          <CardDescription className="break-all">{where}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <p className="text-sm text-fg-secondary">
            {source.enabled ? `Runs ${source.schedule}` : 'Not on a schedule'}
            {source.nextRunAt && source.enabled ? `, next ${formatDateTime(source.nextRunAt)}` : ''}. Those who left
            stay active {source.graceDays} days; a run marking more than {`${source.approvalShare}\u00a0%`} as left
            waits for approval.
          </p>
          {source.kind === 'sftp' ? (
            <p className="text-sm text-fg-secondary break-all">
              {source.sftpHostKey
                ? `Host key ${source.sftpHostKey}: a server showing another key is refused.`
                : 'The host key is kept at the first connection.'}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button
              onClick={() =>
                run.mutate(source.id, {
                  onSuccess: (r) => {
                    toast({
                      title: STATUS[r.status].label,
                      description: r.status === 'failed' ? (r.errorText ?? '') : countsText(r.counts),
                    });
                    if (r.status === 'awaiting_approval') setPreviewing(r.id);
                  },
                  onError: (err) => toastFailure('The roster could not be run', err),
                })
              }
              disabled={run.isPending}
            >
              <Play aria-hidden /> Run now
            </Button>
            <Button variant="outline" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button variant="ghost" onClick={() => setRemoving(true)}>
              <Trash2 aria-hidden /> Remove
            </Button>
          </div>
        </CardContent>
      </Card>
      {previewing ? (
        <RunPreview organizationId={organizationId} runId={previewing} onClose={() => setPreviewing(undefined)} />
      ) : null}
      <RunsCard organizationId={organizationId} onPreview={setPreviewing} />
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title="Remove the roster source?"
        description="Its runs go with it. The recipients stay as the last run left them."
        confirmLabel="Remove"
        onConfirm={() =>
          remove.mutate(source.id, {
            onSuccess: () => toast({ title: 'Roster source removed' }),
            onError: (err) => toastFailure('The roster source could not be removed', err),
          })
        }
      />
    </div>
  );
}

/** Settings > Roster (admins): the roster source, its runs, and the preview of a waiting run. Loaded lazily. */
export default function RosterPane({ organizationId }: { organizationId: string }) {
  const sources = useRosterSources(organizationId);
  const [starting, setStarting] = useState(false);
  if (sources.isPending)
    return <SkeletonRows label="Loading the roster" rows={4} row={() => <Skeleton className="h-6 w-full" />} />;
  if (sources.isError) return <p className="text-sm text-red-600">The roster could not be loaded.</p>;
  const [source] = sources.data;
  if (source) return <SourceSummary organizationId={organizationId} source={source} />;
  if (starting) return <RosterSourceForm organizationId={organizationId} />;
  return (
    <EmptyState
      icon={ClipboardList}
      title="No resident roster yet"
      action={<Button onClick={() => setStarting(true)}>Set up the roster</Button>}
    >
      Keep recipients in step with your property-management system: Pigeonhole fetches its CSV export over HTTPS or SFTP
      on a schedule, adds move-ins, updates moves, and marks move-outs as left.
    </EmptyState>
  );
}
