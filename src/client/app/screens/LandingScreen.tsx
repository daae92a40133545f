import type { PlansReply } from '@contract';
import { useEffect, useState } from 'react';
import { LandingPage, type LandingVariant } from '@/features/landing/components/LandingPage';
import { apiRequest } from '@/lib/api';
import { preloadPath } from '../routes';

const preloadSignedOut = (href: string) => preloadPath(href, false);

// Fetched once per page load, shared by / and /pricing. A plain call rather than billing's
// usePlans (TanStack Query): the landing page's first load carries no query library (issue 14:
// under 100 KB), and a module shared with the billing screens would bring it along.
let plansRequest: Promise<PlansReply> | undefined;

/** The server's plan table (GET /api/plans: prices, the trial, the sales address). */
function usePlanTable() {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ data?: PlansReply; failed: boolean }>({ failed: false });
  useEffect(() => {
    let live = true;
    plansRequest ??= apiRequest<PlansReply>('GET', '/api/plans');
    plansRequest.then(
      (data) => live && setState({ data, failed: false }),
      () => {
        plansRequest = undefined;
        if (live) setState({ failed: true });
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  return {
    data: state.data,
    failed: state.failed,
    retry: () => {
      setState({ failed: false });
      setAttempt((n) => n + 1);
    },
  };
}

/** The landing page with the server's plan table. */
export function LandingView({ variant }: { variant: LandingVariant }) {
  const plans = usePlanTable();
  return <LandingPage variant={variant} plans={plans} onIntent={preloadSignedOut} />;
}

/** / and /homepage, signed out. */
export function LandingScreen() {
  return <LandingView variant="trial" />;
}
