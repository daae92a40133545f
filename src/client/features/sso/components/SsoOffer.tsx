import { ssoErrorMessage, ssoStartUrl, type SsoLookupReply } from '@contract';
import { KeyRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { lookupSso } from '../api/lookup';

/** How long typing must pause before the address is looked up. */
const DEBOUNCE_MS = 400;

/**
 * The sign-in page's single sign-on (decision 059): a refusal brought back from the provider
 * (/login?sso_error=…) in words, and "Continue with single sign-on" for an address whose domain
 * an organization with single sign-on has verified. Loaded only when an address is typed.
 */
export function SsoOffer({ email, invitationToken }: { email: string; invitationToken?: string }) {
  const [found, setFound] = useState<{ email: string; reply: SsoLookupReply } | null>(null);
  const refusal = ssoErrorMessage(new URLSearchParams(window.location.search).get('sso_error'));

  useEffect(() => {
    if (!email) return;
    let live = true;
    const timer = window.setTimeout(() => {
      lookupSso(email)
        .then((reply) => live && setFound({ email, reply }))
        .catch(() => live && setFound(null));
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [email]);

  const reply = found && found.email === email ? found.reply : null;
  return (
    <div className="space-y-3">
      {refusal && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300"
        >
          {refusal}
        </p>
      )}
      {reply?.sso && (
        <div className="space-y-2">
          {reply.required && (
            <p className="text-sm text-fg-secondary">Your organization signs you in through its identity provider.</p>
          )}
          <Button asChild variant="outline" className="w-full">
            <a href={ssoStartUrl(email, invitationToken)}>
              <KeyRound aria-hidden /> Continue with single sign-on
            </a>
          </Button>
        </div>
      )}
    </div>
  );
}
