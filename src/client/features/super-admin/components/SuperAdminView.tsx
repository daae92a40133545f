import type { PlatformLogKind, User } from '@contract';
import { Building2, ScrollText, ShieldCheck, Users } from 'lucide-react';
import { useCallback } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { CONSOLE_TABS, useConsoleParams, type ConsoleTab } from '../hooks/useConsoleParams';
import { ConsoleSearch } from './ConsoleSearch';
import { OrganizationsTab } from './OrganizationsTab';
import { PlatformStatCards } from './PlatformStatCards';
import { SystemLogsTab } from './SystemLogsTab';
import { UsersTab } from './UsersTab';

const isTab = (value: string): value is ConsoleTab => (CONSOLE_TABS as readonly string[]).includes(value);

/** Phones: the three tabs share the width by their length, without icons, so none is cut off. */
const triggerClass = 'max-sm:flex-auto max-sm:px-2 max-sm:[&_svg]:hidden';

/**
 * The Super Admin Dashboard (spec §2): platform figures, organizations, users, System Logs. The
 * tab, the search, the log kind and the page are in the URL (?tab=&q=&kind=&page=).
 */
export function SuperAdminView({ user }: { user: User }) {
  const { tab, search, kind, page, update } = useConsoleParams();
  const onPage = useCallback(
    (next: number, options?: { replace?: boolean }) => update({ page: next }, options),
    [update],
  );
  const onKind = useCallback((next: PlatformLogKind | 'all') => update({ kind: next }), [update]);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Super Admin Dashboard"
        description="Every organization and user of the platform."
        actions={
          <Badge tone="indigo" className="gap-1.5 px-3 py-1 text-sm">
            <ShieldCheck aria-hidden className="size-4" /> Super Admin Access
          </Badge>
        }
      />
      <PlatformStatCards />
      <ConsoleSearch
        value={search}
        onCommit={(next) => {
          if (next !== search) update({ search: next }, { replace: true });
        }}
      />
      <Tabs value={tab} onValueChange={(value) => isTab(value) && update({ tab: value })}>
        <TabsList className="flex w-full overflow-x-auto sm:inline-flex sm:w-auto">
          <TabsTrigger value="organizations" className={triggerClass}>
            <Building2 aria-hidden /> Organizations
          </TabsTrigger>
          <TabsTrigger value="users" className={triggerClass}>
            <Users aria-hidden /> Users
          </TabsTrigger>
          <TabsTrigger value="logs" className={triggerClass}>
            <ScrollText aria-hidden /> System Logs
          </TabsTrigger>
        </TabsList>
        <Card className="mt-4 overflow-hidden">
          <TabsContent value="organizations">
            <OrganizationsTab search={search} page={page} onPage={onPage} />
          </TabsContent>
          <TabsContent value="users">
            <UsersTab search={search} page={page} onPage={onPage} currentUserId={user.id} />
          </TabsContent>
          <TabsContent value="logs">
            <SystemLogsTab search={search} kind={kind} page={page} onPage={onPage} onKind={onKind} />
          </TabsContent>
        </Card>
      </Tabs>
    </div>
  );
}
