import { QueryClientProvider } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { LoadError } from '@/components/ListState';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api';
import { queryClient } from '@/lib/queryClient';
import { portalQueryKey } from '../api/keys';
import { usePortalMe } from '../api/me';
import { onSessionEnded } from '../api/portalRequest';
import { signOutOfPortal } from '../api/session';
import { ExpectedPackagesSection } from './ExpectedPackagesSection';
import { PastItemsSection } from './PastItemsSection';
import { PickupCodeSection } from './PickupCodeSection';
import { PreferencesSection } from './PreferencesSection';
import { ProxiesSection } from './ProxiesSection';
import { RateRefusalNotice } from './RateRefusalNotice';
import { WaitingItemsSection } from './WaitingItemsSection';
import { LanguageSwitch } from './LanguageSwitch';
import { PortalI18nProvider, pageLanguage, usePortalI18n } from '../i18n';

/** Whatever an earlier visit of this tab left in the cache (another recipient's, maybe) goes. */
const forgetThePage = () => queryClient.removeQueries({ queryKey: portalQueryKey });

/**
 * /my/packages: the recipient's own page (decision 032), in its own small shell. Its queries use
 * the app's query client, but not the staff app's QueryRoot: that one keeps the staff session in
 * step (asks /api/auth/user), which a recipient has nothing to do with.
 */
export function PortalPage() {
  useState(forgetThePage); // once, before the sections' first queries
  return (
    <QueryClientProvider client={queryClient}>
      <PortalInLanguage />
    </QueryClientProvider>
  );
}

/** The page in the recipient's language, else the browser's, else the organization's (decision 066). */
function PortalInLanguage() {
  const me = usePortalMe();
  return (
    <PortalI18nProvider language={pageLanguage(me.data)}>
      <PortalPageContent />
    </PortalI18nProvider>
  );
}

function PortalPageContent() {
  const [, navigate] = useLocation();
  const me = usePortalMe();
  const { t } = usePortalI18n();
  // A 401 from any section: the session ended; the request form says so.
  useEffect(() => onSessionEnded(() => navigate('/my?signed-out', { replace: true })), [navigate]);

  // (a 401 is not shown: the page is on its way to /my)
  if (me.isError && !(me.error instanceof ApiError && me.error.status === 401)) {
    return <LoadError title={t('page.loadError')} onRetry={() => void me.refetch()} className="min-h-dvh" />;
  }
  if (!me.data) return <PageSpinner />;
  const { recipient, organization, pickupCode } = me.data;

  async function signOut() {
    await signOutOfPortal().catch(() => undefined);
    forgetThePage();
    navigate('/my?signed-out', { replace: true });
  }

  return (
    <div className="min-h-dvh bg-canvas">
      <header className="sticky top-0 z-10 border-b border-line bg-surface/95 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-3xl items-center justify-between gap-3 px-4">
          <p className="truncate font-semibold text-fg">{organization.name}</p>
          <div className="flex shrink-0 items-center gap-1">
            <LanguageSwitch />
            <Button variant="ghost" size="sm" onClick={signOut}>
              <LogOut aria-hidden /> <span className="max-sm:sr-only">{t('page.signOut')}</span>
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-3xl space-y-5 px-4 py-6">
        <RateRefusalNotice />
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-fg">
            {t('page.hello', { firstName: recipient.firstName })}
          </h1>
          <p className="text-sm text-fg-subtle">
            {recipient.firstName} {recipient.lastName} · {organization.name}
          </p>
        </div>
        <div className="grid gap-5 md:grid-cols-[1fr_16rem]">
          {/* On a phone the code comes first: it is what the recipient shows at the desk. */}
          <div className="md:order-last">
            <PickupCodeSection pickupCode={pickupCode} />
          </div>
          <WaitingItemsSection />
        </div>
        <ExpectedPackagesSection />
        <PastItemsSection />
        <div className="grid gap-5 md:grid-cols-2">
          <PreferencesSection me={me.data} />
          <ProxiesSection />
        </div>
      </main>
    </div>
  );
}
