/**
 * The look of a tab list, its tabs and panels: shared by components/ui/tabs (Radix) and the
 * sign-in page's own small tabs (features/auth/components/AuthTabs.tsx), which must not carry
 * Radix's 10 KB. A tab shows as selected through `data-state="active"`.
 */
/** Without a display: the user gives it (inline-flex, or a grid of equal tabs). */
export const tabListClass = 'items-center gap-1 rounded-lg bg-surface-muted p-1 text-fg-muted';

export const tabTriggerClass = [
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium transition-colors',
  'hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500',
  'data-[state=active]:bg-surface data-[state=active]:text-fg data-[state=active]:shadow-sm',
  '[&_svg]:size-4 [&_svg]:shrink-0',
].join(' ');

// the panel takes focus after its tab list (Tab from a tab lands on it): show that it has it
export const tabPanelClass =
  'rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-4';
