import { PortalFrame } from '@/features/portal/components/PortalFrame';
import { RequestLinkForm } from '@/features/portal/components/RequestLinkForm';

/** /my: a recipient asks for a link to their own page. */
export function PortalRequestScreen() {
  const ended = new URLSearchParams(window.location.search).has('signed-out');
  return (
    <PortalFrame
      title="Your mail"
      description={
        ended
          ? 'You are signed out. Ask for a new link to see your packages again.'
          : 'See your packages, your pickup code, and choose how we reach you. We send you a link that opens your page.'
      }
    >
      <RequestLinkForm />
    </PortalFrame>
  );
}
