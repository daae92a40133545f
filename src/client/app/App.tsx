import { lazy, Suspense, useEffect, useState } from 'react';
import { showStashedToast, useToasts } from '@/components/ui/use-toast';
import { AppRoutes } from './AppRoutes';

// The toast viewport (Radix) loads with the first toast, not with the first paint.
const Toaster = lazy(() => import('@/components/ui/toaster').then((m) => ({ default: m.Toaster })));

function LazyToaster() {
  const toasts = useToasts();
  const [needed, setNeeded] = useState(false);
  // a toast stashed before a full-page navigation (the welcome toast after login) shows now
  useEffect(showStashedToast, []);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

/**
 * The first chunk: the router and the session check. TanStack Query arrives with the screens that
 * use it (QueryRoot), so the landing page's first load stays small.
 */
export function App() {
  return (
    <>
      <AppRoutes />
      <LazyToaster />
    </>
  );
}
