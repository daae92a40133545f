import {
  PLAN_TYPES,
  SUBSCRIPTION_STATUSES,
  SUPER_ADMIN_MESSAGES,
  type SuperAdminOrganization,
  type UpdatePlatformOrganizationBody,
} from '@contract';
import { useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { formatLongDate } from '@/lib/format';
import { toastFailure } from '@/lib/useErrorToast';
import { useUpdatePlatformOrganization } from '../api/platform';
import { OrganizationDomains } from './OrganizationDomains';
import { PLAN_LABELS, STATUS_LABELS } from './planLabels';

/**
 * Manage an organization (spec §2): its subscription status and plan, one change at a time,
 * saved as soon as a selector changes (a plan brings its seat and package limits on the server).
 */
export function ManageOrganizationDialog({
  organization,
  onClose,
}: {
  organization: SuperAdminOrganization;
  onClose: () => void;
}) {
  const [current, setCurrent] = useState(organization);
  const update = useUpdatePlatformOrganization();

  const save = (change: UpdatePlatformOrganizationBody) =>
    update.mutate(
      { id: organization.id, change },
      {
        onSuccess: (updated) => {
          setCurrent(updated);
          toast({ title: SUPER_ADMIN_MESSAGES.organizationUpdated });
        },
        onError: (err) => toastFailure(SUPER_ADMIN_MESSAGES.organizationUpdateFailed, err),
      },
    );

  const facts: Array<[string, string]> = [
    ['Created', formatLongDate(current.createdAt)],
    ['Members', `${current.memberCount} of ${current.maxUsers < 0 ? 'unlimited' : current.maxUsers} seats`],
    [
      'Packages this month',
      `${current.packageCount.toLocaleString()} of ${current.maxPackagesPerMonth < 0 ? 'unlimited' : current.maxPackagesPerMonth.toLocaleString()}`,
    ],
    ...(current.trialEndsAt ? ([['Trial ends', formatLongDate(current.trialEndsAt)]] as Array<[string, string]>) : []),
  ];

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={`Manage ${current.name}`} description={current.domain ?? 'No email domain'}>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-1.5">
            <Label htmlFor="manage-status">Subscription Status</Label>
            <Select
              value={current.subscriptionStatus}
              disabled={update.isPending}
              onValueChange={(value) =>
                save({ subscriptionStatus: value as SuperAdminOrganization['subscriptionStatus'] })
              }
            >
              <SelectTrigger id="manage-status">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {SUBSCRIPTION_STATUSES.map((s) => (
                  <SelectItem key={s} value={s}>
                    {STATUS_LABELS[s]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="manage-plan">Plan Type</Label>
            <Select
              value={current.planType}
              disabled={update.isPending}
              onValueChange={(value) => save({ planType: value as SuperAdminOrganization['planType'] })}
            >
              <SelectTrigger id="manage-plan">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {PLAN_TYPES.map((p) => (
                  <SelectItem key={p} value={p}>
                    {PLAN_LABELS[p]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        </div>
        <dl className="mt-5 divide-y divide-line-subtle rounded-lg border border-line text-sm">
          {facts.map(([label, value]) => (
            <div key={label} className="flex justify-between gap-4 px-4 py-2.5">
              <dt className="text-fg-subtle">{label}</dt>
              <dd className="text-right font-medium text-fg">{value}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-4 text-xs text-fg-subtle">
          Each choice is saved as soon as you make it. A plan brings its limits: seats kept within the plan’s range and
          its monthly package allowance. The organization’s admins see the change in their activity log.
        </p>
        <OrganizationDomains organizationId={current.id} />
      </DialogContent>
    </Dialog>
  );
}
