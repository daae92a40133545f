import { formatCents, type Payment } from '@contract';
import { CheckCircle2, ExternalLink, Receipt, XCircle } from 'lucide-react';

import { EmptyState } from '@/components/EmptyState';
import { CardTableOrList, CardTableSkeleton, ListCard } from '@/components/ListCard';
import { ListState } from '@/components/ListState';
import { Badge } from '@/components/ui/badge';

import { Skeleton } from '@/components/ui/skeleton';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { formatDate } from '@/lib/format';

interface PaymentsCardProps {
  payments: Payment[] | undefined;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
}

function StatusBadge({ payment }: { payment: Payment }) {
  return payment.status === 'paid' ? (
    <Badge tone="green" className="gap-1">
      <CheckCircle2 aria-hidden className="size-3" /> Paid
    </Badge>
  ) : (
    <Badge className="gap-1 border-red-200 dark:border-red-800 bg-red-50 dark:bg-red-950/40 text-red-700 dark:text-red-300">
      <XCircle aria-hidden className="size-3" /> Failed
    </Badge>
  );
}

function Amount({ payment }: { payment: Payment }) {
  const code = payment.currency.toUpperCase();
  return (
    <span className="tabular-nums">
      {formatCents(payment.amount)}
      {code !== 'USD' && <span className="text-xs text-fg-subtle"> {code}</span>}
    </span>
  );
}

function Invoice({ payment }: { payment: Payment }) {
  if (!payment.invoiceUrl) {
    return (
      <span className="whitespace-nowrap text-fg-subtle">{payment.provider === 'demo' ? 'None (demo)' : 'None'}</span>
    );
  }
  return (
    <a
      href={payment.invoiceUrl}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1 font-medium whitespace-nowrap text-indigo-600 dark:text-indigo-400 hover:underline"
    >
      View invoice <ExternalLink aria-hidden className="size-3.5" />
      <span className="sr-only">of {formatDate(payment.createdAt)} (opens in a new tab)</span>
    </a>
  );
}

/** Payments and failed charges, newest first, with the provider's invoice where there is one. */
export function PaymentsCard({ payments, isPending, isError, onRetry }: PaymentsCardProps) {
  return (
    <ListCard title="Payment history" description="Newest first.">
      <ListState
        data={payments}
        isPending={isPending}
        isError={isError}
        error={{ title: 'The payment history could not be loaded', onRetry }}
        skeleton={
          <CardTableSkeleton label="Loading payments">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-4 flex-1" />
            <Skeleton className="h-5 w-14 rounded-full" />
          </CardTableSkeleton>
        }
        empty={
          <EmptyState icon={Receipt} title="No payments yet" className="py-10">
            <p>Every payment and failed charge appears here, with its invoice.</p>
          </EmptyState>
        }
      >
        {(payments) => (
          <CardTableOrList
            label="Payment history"
            head={
              <>
                <TableHead className="pl-5 sm:pl-6">Date</TableHead>
                <TableHead className="w-full">Description</TableHead>
                <TableHead className="text-right">Amount</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="pr-5 sm:pr-6">Invoice</TableHead>
              </>
            }
            rows={payments.map((payment) => (
              <TableRow key={payment.id}>
                <TableCell className="pl-5 whitespace-nowrap sm:pl-6">{formatDate(payment.createdAt)}</TableCell>
                <TableCell className="min-w-48">{payment.description}</TableCell>
                <TableCell className="text-right font-medium text-fg">
                  <Amount payment={payment} />
                </TableCell>
                <TableCell>
                  <StatusBadge payment={payment} />
                </TableCell>
                <TableCell className="pr-5 sm:pr-6">
                  <Invoice payment={payment} />
                </TableCell>
              </TableRow>
            ))}
            items={payments.map((payment) => (
              <li key={payment.id} className="space-y-1.5 px-5 py-4">
                <div className="flex items-center justify-between gap-3">
                  <span className="font-medium text-fg">
                    <Amount payment={payment} />
                  </span>
                  <StatusBadge payment={payment} />
                </div>
                <p className="text-sm text-fg-muted">{payment.description}</p>
                <p className="flex items-center justify-between gap-3 text-sm">
                  <span className="text-fg-subtle">{formatDate(payment.createdAt)}</span>
                  <Invoice payment={payment} />
                </p>
              </li>
            ))}
          />
        )}
      </ListState>
    </ListCard>
  );
}
