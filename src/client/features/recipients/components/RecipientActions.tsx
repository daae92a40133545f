import type { Recipient } from '@contract';
import { Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/cn';
import { recipientName } from '../recipientFormat';

export interface RecipientActionHandlers {
  onEdit: (recipient: Recipient) => void;
  onToggleActive: (recipient: Recipient) => void;
  onDelete: (recipient: Recipient) => void;
  /** Only admins delete recipients. */
  canDelete: boolean;
  /** The recipient whose active state is being saved. */
  togglingId: string | null;
}

interface RecipientActionsProps extends RecipientActionHandlers {
  recipient: Recipient;
  /** Icon buttons with tooltips (table) or labelled buttons (phone cards). */
  layout: 'icons' | 'labels';
}

/** Edit, Activate/Deactivate and (admins) Delete, each named after the recipient for screen readers. */
export function RecipientActions({
  recipient,
  layout,
  onEdit,
  onToggleActive,
  onDelete,
  canDelete,
  togglingId,
}: RecipientActionsProps) {
  const name = recipientName(recipient);
  const toggleLabel = recipient.isActive ? 'Deactivate' : 'Activate';
  const actions = [
    { key: 'edit', label: 'Edit', icon: Pencil, onClick: () => onEdit(recipient), danger: false, busy: false },
    {
      key: 'toggle',
      label: toggleLabel,
      icon: recipient.isActive ? PowerOff : Power,
      onClick: () => onToggleActive(recipient),
      danger: false,
      busy: togglingId === recipient.id,
    },
    ...(canDelete
      ? [
          {
            key: 'delete',
            label: 'Delete',
            icon: Trash2,
            onClick: () => onDelete(recipient),
            danger: true,
            busy: false,
          },
        ]
      : []),
  ];

  if (layout === 'labels') {
    return (
      <div className={cn('grid gap-2', actions.length === 3 ? 'grid-cols-3' : 'grid-cols-2')}>
        {actions.map(({ key, label, onClick, danger, busy }) => (
          <Button
            key={key}
            variant="outline"
            size="sm"
            aria-label={`${label} ${name}`}
            disabled={busy}
            onClick={onClick}
            className={cn('px-2', danger && 'text-red-600 hover:bg-red-50 hover:text-red-700')}
          >
            {label}
          </Button>
        ))}
      </div>
    );
  }

  return (
    <div className="flex justify-end gap-1">
      {actions.map(({ key, label, icon: Icon, onClick, danger, busy }) => (
        <Tooltip key={key} content={label} side="top">
          <Button
            variant="ghost"
            size="sm"
            aria-label={`${label} ${name}`}
            disabled={busy}
            onClick={onClick}
            className={cn('size-8 px-0', danger ? 'text-red-600 hover:bg-red-50 hover:text-red-700' : 'text-slate-500')}
          >
            <Icon aria-hidden />
          </Button>
        </Tooltip>
      ))}
    </div>
  );
}
