import type { SuperAdminUser } from '@contract';
import { ShieldCheck, Users } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { displayName, formatDate } from '@/lib/format';
import { usePlatformUsers } from '../api/platform';
import { useLastPageWhenPastEnd } from '../hooks/useConsoleParams';
import { ManageUserDialog } from './ManageUserDialog';
import { PlatformListState, PlatformTable, type ListPaging } from './PlatformListState';

const personOf = (u: SuperAdminUser) => ({ ...u, username: u.username ?? u.email });

function RoleBadge({ user }: { user: SuperAdminUser }) {
  return user.isSuperAdmin ? (
    <Badge tone="indigo" className="gap-1">
      <ShieldCheck aria-hidden className="size-3" /> Super Admin
    </Badge>
  ) : (
    <span className="text-sm text-fg-subtle">Regular User</span>
  );
}

function OrganizationBadges({ user }: { user: SuperAdminUser }) {
  if (user.organizations.length === 0) return <span className="text-sm text-fg-subtle">None</span>;
  return (
    <div className="flex flex-wrap gap-1">
      {user.organizations.map((o) => (
        <Badge key={o.id}>{o.name}</Badge>
      ))}
    </div>
  );
}

/** Every user, newest first, searched by email, username or full name on the server. */
export function UsersTab({ search, currentUserId, ...paging }: { search: string; currentUserId: string } & ListPaging) {
  const [managing, setManaging] = useState<SuperAdminUser | null>(null);
  const list = usePlatformUsers(search, paging.page);
  useLastPageWhenPastEnd(list, paging.page, paging.onPage);
  const manage = (user: SuperAdminUser) => (
    <Button variant="outline" size="sm" onClick={() => setManaging(user)} aria-label={`Manage ${user.email}`}>
      Manage
    </Button>
  );

  return (
    <>
      <PlatformListState
        list={list}
        label="users"
        pagerLabel="Users"
        search={search}
        paging={paging}
        emptyIcon={Users}
        emptyTitle="No users yet"
        emptyHint="Accounts appear here as soon as someone registers."
      >
        {(items) => (
          <PlatformTable
            label="Users"
            items={items}
            busy={list.isPlaceholderData}
            head={
              <>
                <TableHead className="pl-5">User</TableHead>
                <TableHead>Email</TableHead>
                <TableHead>Organizations</TableHead>
                <TableHead>Super Admin</TableHead>
                <TableHead>Created</TableHead>
                <TableHead className="pr-5 text-right">Actions</TableHead>
              </>
            }
            row={(u) => (
              <TableRow key={u.id}>
                <TableCell className="pl-5 font-medium text-fg">{displayName(personOf(u))}</TableCell>
                <TableCell className="text-fg-muted">{u.email}</TableCell>
                <TableCell>
                  <OrganizationBadges user={u} />
                </TableCell>
                <TableCell>
                  <RoleBadge user={u} />
                </TableCell>
                <TableCell className="whitespace-nowrap">{formatDate(u.createdAt)}</TableCell>
                <TableCell className="pr-5 text-right">{manage(u)}</TableCell>
              </TableRow>
            )}
            card={(u) => (
              <>
                <div className="min-w-0 space-y-1">
                  <p className="font-medium break-words text-fg">{displayName(personOf(u))}</p>
                  <p className="text-xs break-all text-fg-subtle">{u.email}</p>
                  <OrganizationBadges user={u} />
                  <div className="flex items-center gap-2">
                    <RoleBadge user={u} />
                    <span className="text-xs text-fg-subtle">{formatDate(u.createdAt)}</span>
                  </div>
                </div>
                {manage(u)}
              </>
            )}
          />
        )}
      </PlatformListState>
      {managing && (
        <ManageUserDialog user={managing} isSelf={managing.id === currentUserId} onClose={() => setManaging(null)} />
      )}
    </>
  );
}
