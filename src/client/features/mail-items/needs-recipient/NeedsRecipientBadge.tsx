import { useCurrentOrganization } from '@/lib/currentOrganization';
import { useNeedsRecipientCount } from '../api/needsRecipientCount';

/**
 * The sidebar's count of items waiting for a recipient (decision 041): nothing when there are none.
 * On the icon rail (below md) a dot on the icon; beside the label from md up.
 */
export function NeedsRecipientBadge() {
  const { current } = useCurrentOrganization();
  const count = useNeedsRecipientCount(current?.id).data?.count ?? 0;
  if (count === 0) return null;
  const label = `${count} ${count === 1 ? 'item needs' : 'items need'} a recipient`;
  return (
    <span
      title={label}
      className="ml-auto inline-flex min-w-5 items-center justify-center rounded-full bg-amber-100 px-1.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/60 dark:text-amber-100 max-md:absolute max-md:top-1 max-md:right-1 max-md:min-w-4 max-md:px-1 max-md:text-[10px]"
    >
      <span aria-hidden>{count > 99 ? '99+' : count}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}
