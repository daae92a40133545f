import { useRef, useState } from 'react';
import { trackingKey, type ExpectedBy, type ExpectedMatch } from '@contract';
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
 * Who expects the tracking number in Log Mail: asked as the number is scanned or typed (a short
 * pause after typing), the latest answer wins; none (404) or any failure is nobody. The answer is
 * only offered: an expected number never fills in the recipient (decision 047), the clerk chooses.
 */
export function useExpectedMatch(organizationId: string) {
  const [expecters, setExpecters] = useState<ExpectedBy[]>([]);
  const latest = useRef('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const ask = async (tracking: string) => {
    const key = trackingKey(tracking);
    latest.current = key;
    try {
      const found = await fetchExpectedMatch(organizationId, tracking);
      if (latest.current === key) setExpecters(found.items);
    } catch {
      if (latest.current === key) setExpecters([]);
    }
  };

  return {
    expecters,
    /** The number changed: look it up after a pause (typing) or at once (a scan, `now`). */
    onTrackingChange: (tracking: string, now = false) => {
      clearTimeout(timer.current);
      if (trackingKey(tracking) !== latest.current) setExpecters([]);
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
      setExpecters([]);
    },
  };
}
