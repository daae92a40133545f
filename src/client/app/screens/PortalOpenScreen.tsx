import { LinkIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { PORTAL_LINK_ERRORS } from '@contract';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api';
import { messageOf } from '@/features/portal/api/portalRequest';
import { openPortalSession } from '@/features/portal/api/session';
import { PortalFrame } from '@/features/portal/components/PortalFrame';
import { RequestLinkForm } from '@/features/portal/components/RequestLinkForm';

const EXPLANATIONS: Record<string, string> = {
  link_expired:
    'Links you ask for here work for 15 minutes, links in an arrival email for 7 days. Get a new one below.',
  link_used: 'Each link opens your page once. If that was you on another device, get a new link below.',
  link_invalid: 'It may have been cut short when it was copied. Get a new one below.',
};

const TITLES: Record<string, string> = {
  link_expired: 'This link has expired',
  link_used: 'This link was already used',
  link_invalid: 'This link is not valid',
};

/**
 * /my/open#token=…: the token is in the fragment (never sent with a GET, so a mail scanner that
 * opens the link uses nothing); this page POSTs it once and goes on to the page.
 */
export function PortalOpenScreen() {
  const [, navigate] = useLocation();
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token'));
  const [failure, setFailure] = useState<{ code: string; message: string } | null>(() =>
    token ? null : { code: 'link_invalid', message: PORTAL_LINK_ERRORS.invalid },
  );
  const started = useRef(false);

  useEffect(() => {
    // The token leaves the address bar (and the history) at once.
    window.history.replaceState(null, '', '/my/open');
    if (started.current || !token) return;
    started.current = true;
    openPortalSession(token)
      .then(() => navigate('/my/packages', { replace: true }))
      .catch((err: unknown) => {
        const code = err instanceof ApiError ? (err.reply?.code ?? '') : '';
        setFailure({ code, message: messageOf(err) });
      });
  }, [navigate, token]);

  if (!failure) {
    return (
      <PortalFrame title="Opening your page…">
        <div className="flex justify-center py-6">
          <Spinner label="Opening your page" />
        </div>
      </PortalFrame>
    );
  }
  return (
    <PortalFrame title={TITLES[failure.code] ?? 'This link did not open your page'}>
      <div className="mb-5 flex items-start gap-3 rounded-lg bg-surface-muted p-3 text-sm text-fg-secondary">
        <LinkIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
        {EXPLANATIONS[failure.code] ?? failure.message}
      </div>
      <RequestLinkForm />
    </PortalFrame>
  );
}
