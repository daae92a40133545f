import type { LicenseSummary, MyOrganization } from '@contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Loader2, Lock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { Card } from '@/components/ui/card';
import { organizationQuery } from '@/lib/resources/organizations';
import { organizationsQueryKey } from '@/lib/resources/keys';
import { useActiveLicenses } from '../api/activeLicenses';
import { useLicenseSummary } from '../api/licenseSummary';
import { usePayments } from '../api/payments';
import { useFailureToast } from '../hooks/useFailureToast';
import { planName } from '../planState';
import { CurrentPlanCard } from './CurrentPlanCard';
import { LicensesCard } from './LicensesCard';
import { PaymentsCard } from './PaymentsCard';
import { PlanComparison } from './PlanComparison';

/** A payment this recent counts as the one just made at Stripe. */
const RECENT_PAYMENT_MS = 15 * 60_000;

/**
 * Back from Stripe (`?checkout=success`): the plan changes when Stripe's signed event reaches the
 * server, which may take a few seconds. Until then this says the payment was received.
 */
function CheckoutReturnNotice({ summary, openedAt }: { summary: LicenseSummary | undefined; openedAt: number }) {
  const applied =
    summary?.subscriptionStatus === 'active' &&
    summary.lastPaymentDate !== null &&
    new Date(summary.lastPaymentDate).getTime() > openedAt - RECENT_PAYMENT_MS;
  if (applied) {
    return (
      <p
        role="status"
        className="flex items-start gap-2 rounded-lg border border-emerald-200 dark:border-emerald-800 bg-emerald-50 dark:bg-emerald-950/40 px-4 py-3 text-sm text-emerald-900 dark:text-emerald-300"
      >
        <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
        <span>
          <strong className="font-semibold">Payment confirmed.</strong> You are on the {planName(summary.planType)} plan
          with {summary.seats < 0 ? 'unlimited' : summary.seats} seats.
        </span>
      </p>
    );
  }
  return (
    <p
      role="status"
      className="flex items-start gap-2 rounded-lg border border-indigo-200 dark:border-indigo-800 bg-indigo-50 dark:bg-indigo-950/40 px-4 py-3 text-sm text-indigo-900 dark:text-indigo-300"
    >
      <Loader2 aria-hidden className="mt-0.5 size-4 shrink-0 animate-spin text-indigo-600 dark:text-indigo-400" />
      Payment received: your plan changes as soon as Stripe confirms it
    </p>
  );
}

/**
 * While billing is on screen the organization and its licences are polled every 5 s and on focus
 * (spec §9). When the organization changed (a webhook applied a plan) the shell's list is reloaded,
 * so the banner and the limits follow at once.
 */
function useOrganizationPolling(organization: MyOrganization) {
  const queryClient = useQueryClient();
  const fresh = useQuery({
    ...organizationQuery(organization.id),
    refetchInterval: 5_000,
    refetchOnWindowFocus: true,
    refetchOnMount: 'always',
  });
  useFailureToast(fresh.error, 'Failed to fetch organization');
  const data = fresh.data;
  const changed =
    data !== undefined &&
    (data.planType !== organization.planType ||
      data.subscriptionStatus !== organization.subscriptionStatus ||
      data.maxUsers !== organization.maxUsers ||
      data.trialEndDate !== organization.trialEndDate);
  useEffect(() => {
    if (changed) void queryClient.invalidateQueries({ queryKey: organizationsQueryKey, exact: true });
  }, [changed, queryClient]);
}

function AdminsOnly({ organization }: { organization: MyOrganization }) {
  return (
    <Card className="px-6 py-10 text-center">
      <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-surface-muted text-fg-subtle">
        <Lock aria-hidden className="size-6" />
      </span>
      <h2 className="mt-4 text-lg font-semibold text-fg">Only admins can manage billing</h2>
      <p className="mt-1 text-sm text-fg-subtle">Ask an admin of {organization.name} about plans and invoices.</p>
    </Card>
  );
}

function AdminBilling({ organization }: { organization: MyOrganization }) {
  const search = useSearch();
  const returned = new URLSearchParams(search).get('checkout') === 'success';
  const [openedAt] = useState(() => Date.now());

  useOrganizationPolling(organization);
  const summary = useLicenseSummary(organization.id);
  const licenses = useActiveLicenses(organization.id);
  const payments = usePayments(organization.id);
  useFailureToast(summary.error ?? licenses.error, 'Failed to fetch licenses');
  useFailureToast(payments.error, 'Failed to fetch payments');

  return (
    <div className="space-y-6">
      {returned && <CheckoutReturnNotice summary={summary.data} openedAt={openedAt} />}
      <CurrentPlanCard
        organizationId={organization.id}
        summary={summary.data}
        isPending={summary.isPending}
        isError={summary.isError && !summary.data}
        onRetry={() => void summary.refetch()}
      />
      {summary.data && <PlanComparison organizationId={organization.id} summary={summary.data} />}
      <LicensesCard
        licenses={licenses.data}
        isPending={licenses.isPending}
        isError={licenses.isError}
        onRetry={() => void licenses.refetch()}
      />
      <PaymentsCard
        payments={payments.data}
        isPending={payments.isPending}
        isError={payments.isError}
        onRetry={() => void payments.refetch()}
      />
    </div>
  );
}

/** Settings > Billing and Plans, /settings-billing and /subscription-management (spec §2). */
export function BillingView({ organization }: { organization: MyOrganization }) {
  if (organization.role !== 'admin') return <AdminsOnly organization={organization} />;
  return <AdminBilling organization={organization} />;
}
