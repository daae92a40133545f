import type { SuperAdminUser } from '@contract';
import { ShieldCheck, Users } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Pager } from '@/components/Pager';
import { displayName, formatDate } from '@/lib/format';
import { usePlatformUsers, PLATFORM_PAGE_SIZE } from '../api/platform';
import { useLastPageWhenPastEnd } from '../hooks/useConsoleParams';
import { ManageUserDialog } from './ManageUserDialog';
import { PlatformListState, type ListPaging } from './PlatformListState';

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
export function UsersTab({
  search,
  page,
  onPage,
  currentUserId,
}: { search: string; currentUserId: string } & ListPaging) {
  const [managing, setManaging] = useState<SuperAdminUser | null>(null);
  const list = usePlatformUsers(search, page);
  const { data, isPending, isError, isPlaceholderData, refetch } = list;
  useLastPageWhenPastEnd(list, page, onPage);
  const items = data?.items ?? [];
  const manage = (user: SuperAdminUser) => (
    <Button variant="outline" size="sm" onClick={() => setManaging(user)} aria-label={`Manage ${user.email}`}>
      Manage
    </Button>
  );

  return (
    <>
      <PlatformListState
        label="users"
        isPending={isPending}
        isError={isError}
        hasData={Boolean(data)}
        count={items.length}
        search={search}
        emptyIcon={Users}
        emptyTitle="No users yet"
        emptyHint="Accounts appear here as soon as someone registers."
        onRetry={() => void refetch()}
      >
        <div className="hidden md:block" aria-busy={isPlaceholderData || undefined}>
          <Table aria-label="Users">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead className="pl-5">User</TableHead>
                <TableHead>Email</TableHead>
                <TableHead>Organizations</TableHead>
                <TableHead>Super Admin</TableHead>
                <TableHead>Created</TableHead>
                <TableHead className="pr-5 text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((u) => (
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
              ))}
            </TableBody>
          </Table>
        </div>
        <ul aria-label="Users" className="divide-y divide-line-subtle md:hidden">
          {items.map((u) => (
            <li key={u.id} className="flex items-start justify-between gap-3 px-4 py-3.5">
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
            </li>
          ))}
        </ul>
      </PlatformListState>
      <Pager
        label="Users"
        page={page}
        pageSize={PLATFORM_PAGE_SIZE}
        total={data?.total ?? 0}
        busy={isPlaceholderData}
        onPage={onPage}
        className="px-5 pb-3"
      />
      {managing && (
        <ManageUserDialog user={managing} isSelf={managing.id === currentUserId} onClose={() => setManaging(null)} />
      )}
    </>
  );
}
