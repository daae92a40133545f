import { ArrowRight, BellRing } from 'lucide-react';
import { Link } from 'wouter';
import { useT } from '@/lib/i18n/catalogue';
import { dashboardMessages } from '@/lib/i18n/namespaces/dashboard';
import { useIntegrations } from '../api/integrations';

/** Dashboard, admins only: while no integration is set up, the way to /integrations (it has no sidebar link). */
export function IntegrationsHint({ organizationId }: { organizationId: string }) {
  const t = useT(dashboardMessages);
  const { data } = useIntegrations(organizationId);
  if (!data || data.length > 0) return null;
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-indigo-200 dark:border-indigo-800 bg-indigo-50/60 dark:bg-indigo-950/40 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="flex items-start gap-3 text-sm text-indigo-900 dark:text-indigo-300">
        <BellRing aria-hidden className="mt-0.5 size-4 shrink-0 text-indigo-600 dark:text-indigo-400" />
        <span>
          <span className="font-medium">{t('hint.lead')}</span> {t('hint.body')}
        </span>
      </p>
      <Link
        href="/integrations"
        className="inline-flex shrink-0 items-center gap-1.5 self-start rounded-md text-sm font-medium text-indigo-700 dark:text-indigo-300 hover:text-indigo-800 dark:hover:text-indigo-300 hover:underline focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none sm:self-center"
      >
        {t('hint.link')} <ArrowRight aria-hidden className="size-4" />
      </Link>
    </div>
  );
}
