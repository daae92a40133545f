import { useRef, useState } from 'react';
import { trackingKey, type ExpectedMatch } from '@contract';
import { apiRequest } from '@/lib/api';

export function fetchExpectedMatch(organizationId: string, tracking: string) {
  return apiRequest<ExpectedMatch>(
    'GET',
    `/api/expected-packages/match?tracking=${encodeURIComponent(tracking)}`,
    undefined,
    { organizationId },
  );
}

/** Long enough to be a tracking number the server would look up (decision 033). */
const looksLikeTracking = (tracking: string) => /^[A-Za-z0-9\s-]+$/.test(tracking) && trackingKey(tracking).length >= 6;

/**
 * Who expects the tracking number in Log Mail (decision 033): asked as the number is scanned or
 * typed (a short pause after typing), the latest answer wins; none (404) or any failure is no
 * match, and the clerk picks the recipient as ever.
 */
export function useExpectedMatch(organizationId: string, onMatch: (match: ExpectedMatch) => void) {
  const [match, setMatch] = useState<ExpectedMatch | null>(null);
  const latest = useRef('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const ask = async (tracking: string) => {
    const key = trackingKey(tracking);
    latest.current = key;
    try {
      const found = await fetchExpectedMatch(organizationId, tracking);
      if (latest.current !== key) return;
      setMatch(found);
      onMatch(found);
    } catch {
      if (latest.current !== key) return;
      setMatch(null);
    }
  };

  return {
    match,
    /** The number changed: look it up after a pause (typing) or at once (a scan, `now`). */
    onTrackingChange: (tracking: string, now = false) => {
      clearTimeout(timer.current);
      if (trackingKey(tracking) !== latest.current) setMatch(null);
      if (!looksLikeTracking(tracking)) {
        latest.current = '';
        return;
      }
      if (now) void ask(tracking);
      else timer.current = setTimeout(() => void ask(tracking), 250);
    },
    reset: () => {
      clearTimeout(timer.current);
      latest.current = '';
      setMatch(null);
    },
  };
}
