import type { User } from '@contract';
import { Building2, ScrollText, Search, ShieldCheck, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { OrganizationsTab } from './OrganizationsTab';
import { PlatformStatCards } from './PlatformStatCards';
import { SystemLogsTab } from './SystemLogsTab';
import { UsersTab } from './UsersTab';

/** The search box's text once typing pauses, so each keystroke does not ask the server. */
function useDebounced(value: string, ms: number) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value.trim()), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The Super Admin Dashboard (spec §2): platform figures, organizations, users, System Logs. */
export function SuperAdminView({ user }: { user: User }) {
  const [text, setText] = useState('');
  const search = useDebounced(text, 300);
  const [tab, setTab] = useState('organizations');

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
      <div className="relative max-w-md">
        <Search
          aria-hidden
          className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400"
        />
        <Input
          type="search"
          aria-label="Search"
          placeholder="Search organizations, users, or domains..."
          className="pl-9"
          value={text}
          maxLength={200}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList className="max-w-full overflow-x-auto">
          <TabsTrigger value="organizations">
            <Building2 aria-hidden /> Organizations
          </TabsTrigger>
          <TabsTrigger value="users">
            <Users aria-hidden /> Users
          </TabsTrigger>
          <TabsTrigger value="logs">
            <ScrollText aria-hidden /> System Logs
          </TabsTrigger>
        </TabsList>
        <Card className="mt-4 overflow-hidden">
          <TabsContent value="organizations">
            <OrganizationsTab search={search} />
          </TabsContent>
          <TabsContent value="users">
            <UsersTab search={search} currentUserId={user.id} />
          </TabsContent>
          <TabsContent value="logs">
            <SystemLogsTab search={search} />
          </TabsContent>
        </Card>
      </Tabs>
    </div>
  );
}
