import { Check, ChevronsUpDown, Plus } from 'lucide-react';
import { useState } from 'react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/cn';
import { humanize } from '@/lib/format';
import { useCurrentOrganization } from '@/lib/currentOrganization';
import { CreateOrganizationDialog } from './CreateOrganizationDialog';

function OrganizationInitial({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden
      className={cn(
        'flex size-8 shrink-0 items-center justify-center rounded-md bg-slate-800 text-sm font-semibold text-white',
        className,
      )}
    >
      {name.trim()[0]?.toUpperCase() ?? '?'}
    </span>
  );
}

/** The sidebar's organization menu: switch between the user's organizations or create another. */
export function OrganizationSwitcher() {
  const { organizations, current, select } = useCurrentOrganization();
  const [creating, setCreating] = useState(false);

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          aria-label="Select organization"
          className="flex w-full items-center gap-3 rounded-lg border border-slate-200 bg-white p-1.5 text-left shadow-sm transition-colors hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 max-md:justify-center max-md:border-0 max-md:bg-transparent max-md:shadow-none md:p-2"
        >
          <OrganizationInitial name={current?.name ?? '?'} />
          <span className="hidden min-w-0 flex-1 md:block">
            <span className="block truncate text-sm font-medium text-slate-900">
              {current?.name ?? 'Select organization'}
            </span>
            {current && <span className="block text-xs text-slate-500">{humanize(current.role)}</span>}
          </span>
          <ChevronsUpDown aria-hidden className="hidden size-4 shrink-0 text-slate-400 md:block" />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" side="bottom" className="w-64">
          <DropdownMenuLabel>Organizations</DropdownMenuLabel>
          {organizations.map((org) => (
            <DropdownMenuItem key={org.id} onSelect={() => select(org.id)}>
              <OrganizationInitial name={org.name} className="size-6 text-xs" />
              <span className="min-w-0 flex-1">
                <span className="block truncate">{org.name}</span>
                <span className="block text-xs text-slate-500">{humanize(org.role)}</span>
              </span>
              {org.id === current?.id && <Check aria-label="Current organization" className="text-indigo-600" />}
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setCreating(true)}>
            <Plus aria-hidden className="text-slate-500" />
            Create organization
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <CreateOrganizationDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
