import { useEffect, useState } from 'react';
import { onRateRefusal, type RateRefusal } from '../api/portalRequest';
import { usePortalI18n } from '../i18n';

/**
 * Any write of the page refused for its rate (429, decision 052) says so here, plainly, whichever
 * section made it, with how long to wait; it goes once the wait is over.
 */
export function RateRefusalNotice() {
  const [refusal, setRefusal] = useState<RateRefusal | null>(null);
  const { t } = usePortalI18n();
  useEffect(() => onRateRefusal(setRefusal), []);
  useEffect(() => {
    if (!refusal) return;
    const timer = setTimeout(() => setRefusal(null), refusal.retryAfterSeconds * 1000);
    return () => clearTimeout(timer);
  }, [refusal]);
  // The live region stays in the page, so a screen reader announces the sentence when it appears.
  return (
    <div role="alert" data-testid="portal-rate-refusal">
      {refusal && (
        <p className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200">
          {refusal.message} {t('rate.retry', { seconds: refusal.retryAfterSeconds })}
        </p>
      )}
    </div>
  );
}
