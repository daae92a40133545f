import { PortalPage } from '@/features/portal/components/PortalPage';

/** /my/packages: the recipient's own page (decision 032); the portal feature draws it. */
export function PortalPageScreen() {
  return <PortalPage />;
}
