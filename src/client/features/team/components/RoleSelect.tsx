import { ROLES, type Role } from '@contract';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { humanize } from '@/lib/format';

interface RoleSelectProps {
  value: Role;
  onChange: (role: Role) => void;
  /** Names the control, e.g. "Role of Bob Baker". */
  label: string;
  disabled?: boolean;
  className?: string;
}

/** Admin or member, for one person in the members list. */
export function RoleSelect({ value, onChange, label, disabled, className }: RoleSelectProps) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as Role)} disabled={disabled}>
      <SelectTrigger aria-label={label} className={cn('h-8 w-28 text-sm', className)}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            {humanize(role)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
