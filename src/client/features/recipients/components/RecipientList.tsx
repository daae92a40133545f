import type { Recipient } from '@contract';
import { Mail, Phone } from 'lucide-react';
import { SKELETON_ROWS, Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { humanize } from '@/lib/format';
import { recipientName } from '@/lib/resources/recipients';
import { RecipientActions, type RecipientActionHandlers } from './RecipientActions';
import { RecipientStatusBadges } from './RecipientStatusBadge';

function Contact({ recipient }: { recipient: Recipient }) {
  if (!recipient.email && !recipient.phone) return <span className="text-fg-subtle">No contact details</span>;
  return (
    <div className="min-w-0 space-y-0.5">
      {recipient.email && (
        <p className="flex min-w-0 items-center gap-1.5">
          <Mail aria-hidden className="size-3.5 shrink-0 text-fg-faint" />
          <span className="truncate">{recipient.email}</span>
        </p>
      )}
      {recipient.phone && (
        <p className="flex items-center gap-1.5">
          <Phone aria-hidden className="size-3.5 shrink-0 text-fg-faint" />
          <span>{recipient.phone}</span>
        </p>
      )}
    </div>
  );
}

function Dash() {
  return <span className="text-fg-subtle">—</span>;
}

interface RecipientListProps extends RecipientActionHandlers {
  recipients: Recipient[] | undefined;
  isLoading: boolean;
}

/** A table from md up; stacked cards on phones. */
export function RecipientList({ recipients, isLoading, ...handlers }: RecipientListProps) {
  return (
    <>
      <div className="hidden md:block">
        <Table
          aria-label={isLoading ? 'Loading recipients' : 'Recipients'}
          aria-busy={isLoading || undefined}
          data-skeleton={isLoading ? SKELETON_ROWS : undefined}
        >
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Name</TableHead>
              <TableHead>Contact</TableHead>
              <TableHead>Location</TableHead>
              <TableHead>Department</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {isLoading
              ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  <TableRow key={i} data-skeleton-row>
                    <TableCell>
                      <Skeleton className="h-4 w-32" />
                      <Skeleton className="mt-1.5 h-3 w-16" />
                    </TableCell>
                    <TableCell>
                      <Skeleton className="h-4 w-40" />
                    </TableCell>
                    <TableCell>
                      <Skeleton className="h-4 w-12" />
                    </TableCell>
                    <TableCell>
                      <Skeleton className="h-4 w-24" />
                    </TableCell>
                    <TableCell>
                      <Skeleton className="h-5 w-14 rounded-full" />
                    </TableCell>
                    <TableCell>
                      <Skeleton className="ml-auto h-6 w-24" />
                    </TableCell>
                  </TableRow>
                ))
              : recipients?.map((recipient) => (
                  <TableRow key={recipient.id}>
                    <TableCell className="max-w-56">
                      <p className="truncate font-medium text-fg">{recipientName(recipient)}</p>
                      <p className="text-xs text-fg-subtle">{humanize(recipient.recipientType)}</p>
                    </TableCell>
                    <TableCell className="max-w-64">
                      <Contact recipient={recipient} />
                    </TableCell>
                    <TableCell>{recipient.unit ?? <Dash />}</TableCell>
                    <TableCell className="max-w-48 truncate">{recipient.department ?? <Dash />}</TableCell>
                    <TableCell>
                      <RecipientStatusBadges recipient={recipient} />
                    </TableCell>
                    <TableCell>
                      <RecipientActions recipient={recipient} layout="icons" {...handlers} />
                    </TableCell>
                  </TableRow>
                ))}
          </TableBody>
        </Table>
      </div>

      <ul
        aria-label={isLoading ? 'Loading recipients' : 'Recipients'}
        aria-busy={isLoading || undefined}
        data-skeleton={isLoading ? SKELETON_ROWS : undefined}
        className="divide-y divide-line-subtle md:hidden"
      >
        {isLoading
          ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <li key={i} data-skeleton-row className="space-y-2 p-4">
                <Skeleton className="h-4 w-2/5" />
                <Skeleton className="h-3.5 w-3/5" />
                <Skeleton className="h-3.5 w-1/3" />
              </li>
            ))
          : recipients?.map((recipient) => (
              <li key={recipient.id} className="space-y-3 p-4">
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="truncate font-medium text-fg">{recipientName(recipient)}</p>
                    <p className="text-xs text-fg-subtle">{humanize(recipient.recipientType)}</p>
                  </div>
                  <RecipientStatusBadges recipient={recipient} />
                </div>
                <div className="space-y-1 text-sm text-fg-muted">
                  <Contact recipient={recipient} />
                  {(recipient.unit || recipient.department) && (
                    <p className="text-fg-subtle">
                      {[recipient.unit && `Unit ${recipient.unit}`, recipient.department].filter(Boolean).join(' · ')}
                    </p>
                  )}
                </div>
                <RecipientActions recipient={recipient} layout="labels" {...handlers} />
              </li>
            ))}
      </ul>
    </>
  );
}
