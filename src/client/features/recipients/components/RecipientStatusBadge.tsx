import { Badge } from '@/components/ui/badge';

export function RecipientStatusBadge({ active }: { active: boolean }) {
  return <Badge tone={active ? 'green' : 'neutral'}>{active ? 'Active' : 'Inactive'}</Badge>;
}
