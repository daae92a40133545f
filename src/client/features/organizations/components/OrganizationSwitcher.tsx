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

/**
 * The organization's first letter as a badge. Drawn by CSS (not a text node) because it is
 * decoration: the switcher's name repeats the organization's name, and a letter in its text would
 * make the visible label ("HHarbor View") differ from the name (WCAG 2.5.3, label in name).
 */
function OrganizationInitial({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden
      data-initial={name.trim()[0]?.toUpperCase() ?? '?'}
      className={cn(
        'flex size-8 shrink-0 items-center justify-center rounded-md bg-slate-800 text-sm font-semibold text-white before:content-[attr(data-initial)] dark:bg-slate-600',
        className,
      )}
    />
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
          // the name contains what the button shows (WCAG 2.5.3): the organization and the role
          aria-label={
            current ? `Select organization, current: ${current.name} ${humanize(current.role)}` : 'Select organization'
          }
          className="flex w-full items-center gap-3 rounded-lg border border-line bg-surface p-1.5 text-left shadow-sm transition-colors hover:bg-surface-subtle focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 max-md:justify-center max-md:border-0 max-md:bg-transparent max-md:shadow-none md:p-2"
        >
          <OrganizationInitial name={current?.name ?? '?'} />
          <span className="hidden min-w-0 flex-1 md:block">
            <span className="block truncate text-sm font-medium text-fg">{current?.name ?? 'Select organization'}</span>
            {/* a space between the lines, so the text reads "… Apartments Admin", not "ApartmentsAdmin" */}{' '}
            {current && <span className="block text-xs text-fg-subtle">{humanize(current.role)}</span>}
          </span>
          <ChevronsUpDown aria-hidden className="hidden size-4 shrink-0 text-fg-faint md:block" />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" side="bottom" className="w-64">
          <DropdownMenuLabel>Organizations</DropdownMenuLabel>
          {organizations.map((org) => (
            <DropdownMenuItem key={org.id} onSelect={() => select(org.id)}>
              <OrganizationInitial name={org.name} className="size-6 text-xs" />
              <span className="min-w-0 flex-1">
                <span className="block truncate">{org.name}</span>
                <span className="block text-xs text-fg-subtle">{humanize(org.role)}</span>
              </span>
              {org.id === current?.id && (
                <Check aria-label="Current organization" className="text-indigo-600 dark:text-indigo-400" />
              )}
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setCreating(true)}>
            <Plus aria-hidden className="text-fg-subtle" />
            Create organization
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <CreateOrganizationDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
