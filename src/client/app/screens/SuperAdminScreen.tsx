import type { User } from '@contract';
import { SuperAdminView } from '@/features/super-admin/components/SuperAdminView';
import { NotFoundScreen } from './NotFoundScreen';

/**
 * /super-admin: only for super admins; anyone else gets the 404 page, as for any unknown address
 * (the server refuses their calls with 403 regardless).
 */
export function SuperAdminScreen({ user }: { user: User }) {
  if (!user.isSuperAdmin) return <NotFoundScreen />;
  return <SuperAdminView user={user} />;
}
