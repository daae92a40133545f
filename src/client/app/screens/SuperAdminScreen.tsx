import { SUPER_ADMIN_MESSAGES, type User } from '@contract';
import { ShieldAlert } from 'lucide-react';
import { StatusPanel } from '@/components/StatusPanel';
import { ButtonLink } from '@/components/ButtonLink';
import { usePlatformStats } from '@/features/super-admin/api/platform';
import { SuperAdminView } from '@/features/super-admin/components/SuperAdminView';
import { ApiError } from '@/lib/api';
import { NotFoundScreen } from './NotFoundScreen';

/**
 * /super-admin: only for super admins; anyone else gets the 404 page, as for any unknown address
 * (the server refuses their calls with 403 regardless). Where the server requires two-factor for
 * super admins (decision 029), a super admin without it is told how to turn it on instead.
 */
export function SuperAdminScreen({ user }: { user: User }) {
  if (!user.isSuperAdmin) return <NotFoundScreen />;
  return <SuperAdminGate user={user} />;
}

function SuperAdminGate({ user }: { user: User }) {
  // The console's first call answers whether it may be used; the view shows its own loading
  // state meanwhile and reuses the reply.
  const stats = usePlatformStats();
  const refused = stats.error instanceof ApiError && stats.error.reply?.code === 'two_factor_required';
  if (!refused) return <SuperAdminView user={user} />;
  return (
    <div className="mx-auto max-w-lg py-8">
      <StatusPanel
        icon={ShieldAlert}
        tone="warning"
        title="Two-factor authentication required"
        actions={<ButtonLink href="/settings">Open Account settings</ButtonLink>}
      >
        <p>{SUPER_ADMIN_MESSAGES.twoFactorRequired}</p>
        <p>The super admin console reaches every organization, so a password alone is not enough to open it.</p>
      </StatusPanel>
    </div>
  );
}
