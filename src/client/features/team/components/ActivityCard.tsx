import type { AuditAction } from '@contract';
import {
  Ban,
  Building2,
  Download,
  Globe,
  CreditCard,
  History,
  KeyRound,
  MailPlus,
  MailX,
  MapPin,
  MapPinOff,
  Pencil,
  Plug,
  RefreshCw,
  RotateCw,
  Settings2,
  ShieldCheck,
  Trash2,
  Unplug,
  UserCheck,
  UserMinus,
  UserX,
  Warehouse,
  XCircle,
  type LucideIcon,
} from 'lucide-react';
import { EmptyState } from '@/components/EmptyState';
import { IconTile } from '@/components/IconTile';
import { ListState } from '@/components/ListState';
import { useListPage } from '@/lib/useListPage';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ListSkeleton } from '@/components/ui/skeleton';
import { Pager } from '@/components/Pager';
import { formatDateTime, relativeTime } from '@/lib/format';
import { AUDIT_PAGE_SIZE, useAuditLog } from '../api/auditLog';
import { auditAction, auditActor } from '../auditText';

const icons: Record<AuditAction, LucideIcon> = {
  'invitation.sent': MailPlus,
  'invitation.resent': RotateCw,
  'invitation.revoked': MailX,
  'invitation.accepted': UserCheck,
  'member.role_changed': ShieldCheck,
  'member.removed': UserMinus,
  'organization.updated': Building2,
  'settings.updated': Settings2,
  'integration.created': Plug,
  'integration.updated': Pencil,
  'integration.deleted': Unplug,
  'integration.secret_rotated': RefreshCw,
  'api_key.created': KeyRound,
  'api_key.revoked': KeyRound,
  'mailroom.created': Warehouse,
  'mailroom.updated': Pencil,
  'mailroom.deleted': Trash2,
  'location.created': MapPin,
  'location.updated': Pencil,
  'location.deleted': MapPinOff,
  'billing.plan_changed': CreditCard,
  'billing.payment_failed': XCircle,
  'billing.refused': Ban,
  'recipient.personal_data_exported': Download,
  'recipient.erased': UserX,
  'domain.claimed': Globe,
  'domain.verified': ShieldCheck,
  'domain.removed': Trash2,
  'sso.connection_saved': ShieldCheck,
  'sso.connection_removed': Trash2,
  'sso.signed_in': KeyRound,
  'member.joined_by_sso': UserCheck,
  'member.role_changed_by_sso': ShieldCheck,
  'roster.source_created': Download,
  'roster.source_updated': Download,
  'roster.source_deleted': Trash2,
  'roster.run_started': History,
  'roster.run_approved': ShieldCheck,
  'roster.run_rejected': Ban,
};

/** Who invited, removed, changed a role or a setting, and when; newest first, a page at a time. */
export function ActivityCard({
  organizationId,
  nameOf,
}: {
  organizationId: string;
  /** A current member's name by user id, to word entries about members. */
  nameOf?: (userId: string) => string | undefined;
}) {
  const paging = useListPage(AUDIT_PAGE_SIZE);
  const log = useAuditLog(organizationId, paging.page);
  const { data, isPending, isError, isPlaceholderData, refetch } = log;

  const body = (
    <ListState
      data={data}
      isPending={isPending}
      isError={isError}
      isEmpty={(data) => data.items.length === 0}
      error={{
        title: 'The activity log could not be loaded',
        onRetry: () => void refetch(),
        icon: History,
        className: 'py-8',
      }}
      skeleton={
        <ListSkeleton
          label="Loading activity"
          className="space-y-4"
          rowClassName="gap-3"
          iconClassName="size-8 rounded-full"
          lineClassNames={['h-4 w-3/4', 'mt-1.5 h-3 w-24']}
          trailingClassName={[]}
        />
      }
      empty={
        <EmptyState icon={History} title="No activity yet" className="py-8">
          Invitations, role changes and removals, and changes to settings, integrations and mailrooms will be listed
          here.
        </EmptyState>
      }
    >
      {(data) => (
        <>
          <ol aria-label="Activity" aria-busy={isPlaceholderData || undefined} className="space-y-4">
            {data.items.map((entry) => {
              const Icon = icons[entry.action] ?? History;
              return (
                <li key={entry.id} className="flex items-start gap-3">
                  <IconTile icon={Icon} tone="muted" className="size-8 rounded-full" iconClassName="size-4" />
                  <div className="min-w-0 pt-0.5">
                    <p className="text-sm break-words text-fg-secondary">
                      <span className="font-medium text-fg">{auditActor(entry)}</span> {auditAction(entry, nameOf)}
                    </p>
                    <p className="text-xs text-fg-subtle">
                      <time dateTime={entry.createdAt} title={formatDateTime(entry.createdAt)}>
                        {relativeTime(entry.createdAt)}
                      </time>
                    </p>
                  </div>
                </li>
              );
            })}
          </ol>
          <Pager label="Activity" {...paging.pagerFor(log, isPlaceholderData)} className="mt-5 pt-4" />
        </>
      )}
    </ListState>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Activity</CardTitle>
        <CardDescription>
          Who changed members, invitations, settings, integrations and mailrooms, and when.
        </CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
