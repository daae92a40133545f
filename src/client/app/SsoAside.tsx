import { lazy, Suspense } from 'react';

// Single sign-on's offer (features/sso) loads only once an address is typed or a refusal came
// back: the signed-out bundle stays as it was (decision 059).
const SsoOffer = lazy(() => import('@/features/sso/components/SsoOffer').then((m) => ({ default: m.SsoOffer })));

/** Something@domain.tld: only such a text is worth asking about. */
const ADDRESS = /^[^@\s]+@[^@\s]+\.[^@\s]{2,}$/;

/** The sign-in form's aside: composes auth's form with sso's offer. */
export function SsoAside({ typed, invitationToken }: { typed: string; invitationToken?: string }) {
  const email = ADDRESS.test(typed.trim()) ? typed.trim().toLowerCase() : '';
  const refused = new URLSearchParams(window.location.search).has('sso_error');
  if (!email && !refused) return null;
  return (
    <Suspense fallback={null}>
      <SsoOffer email={email} invitationToken={invitationToken} />
    </Suspense>
  );
}
