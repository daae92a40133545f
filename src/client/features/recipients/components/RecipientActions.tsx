import type { Recipient } from '@contract';
import { Download, MoreHorizontal, Pencil, Power, PowerOff, QrCode, Trash2, UserX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Tooltip } from '@/components/ui/tooltip';
import { DANGER_ACTION_CLASS, RowIconButton } from '@/components/RowIconButton';
import { cn } from '@/lib/cn';
import { recipientName } from '@/lib/resources/recipients';

export interface RecipientActionHandlers {
  onEdit: (recipient: Recipient) => void;
  /** Their pickup code, its QR and the people who may collect for them. */
  onPickupCode: (recipient: Recipient) => void;
  onToggleActive: (recipient: Recipient) => void;
  onDelete: (recipient: Recipient) => void;
  /** Only admins delete recipients. */
  canDelete: boolean;
  /** The recipient whose active state is being saved. */
  togglingId: string | null;
  /** Admins: the recipient's personal data, downloaded or erased on request (decision 015). */
  personalData?: {
    onDownload: (recipient: Recipient) => void;
    onErase: (recipient: Recipient) => void;
    /** The recipient whose file is being fetched. */
    downloadingId: string | null;
  };
}

interface RecipientActionsProps extends RecipientActionHandlers {
  recipient: Recipient;
  /** Icon buttons with tooltips (table) or labelled buttons (phone cards). */
  layout: 'icons' | 'labels';
}

/** The admins' personal data actions, behind a "More" menu so the row stays short. */
function PersonalDataMenu({
  recipient,
  name,
  layout,
  personalData,
}: {
  recipient: Recipient;
  name: string;
  layout: RecipientActionsProps['layout'];
  personalData: NonNullable<RecipientActionHandlers['personalData']>;
}) {
  const downloading = personalData.downloadingId === recipient.id;
  // An icon on phone cards too: the labelled buttons beside it keep their width.
  const trigger = (
    <Button
      variant={layout === 'labels' ? 'outline' : 'ghost'}
      size="sm"
      aria-label={`More actions for ${name}`}
      className={layout === 'labels' ? 'w-9 px-0' : 'size-8 px-0 text-fg-subtle'}
    >
      <MoreHorizontal aria-hidden />
    </Button>
  );
  return (
    <DropdownMenu modal={false}>
      {layout === 'labels' ? (
        <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      ) : (
        <Tooltip content="More" side="top">
          <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
        </Tooltip>
      )}
      <DropdownMenuContent align="end" className="min-w-60">
        <DropdownMenuLabel>Personal data</DropdownMenuLabel>
        <DropdownMenuItem disabled={downloading} onSelect={() => personalData.onDownload(recipient)}>
          <Download aria-hidden /> {downloading ? 'Preparing download…' : 'Download personal data'}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          className="text-red-600 dark:text-red-400 data-[highlighted]:bg-red-50 dark:data-[highlighted]:bg-red-950/40 data-[highlighted]:text-red-700 dark:data-[highlighted]:text-red-300"
          onSelect={() => personalData.onErase(recipient)}
        >
          <UserX aria-hidden /> Erase personal data…
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * Edit, Activate/Deactivate and (admins) Delete, each named after the recipient for screen
 * readers; admins also get a More menu with the personal data actions.
 */
export function RecipientActions({
  recipient,
  layout,
  onEdit,
  onPickupCode,
  onToggleActive,
  onDelete,
  canDelete,
  togglingId,
  personalData,
}: RecipientActionsProps) {
  const name = recipientName(recipient);
  const toggleLabel = recipient.isActive ? 'Deactivate' : 'Activate';
  const actions = [
    { key: 'edit', label: 'Edit', icon: Pencil, onClick: () => onEdit(recipient), danger: false, busy: false },
    {
      key: 'code',
      label: 'Code',
      icon: QrCode,
      onClick: () => onPickupCode(recipient),
      danger: false,
      busy: false,
    },
    // Whether a directory's recipient is active is the directory's to say (decision 060).
    ...(recipient.managedBy
      ? []
      : [
          {
            key: 'toggle',
            label: toggleLabel,
            icon: recipient.isActive ? PowerOff : Power,
            onClick: () => onToggleActive(recipient),
            danger: false,
            busy: togglingId === recipient.id,
          },
        ]),
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

  const more = personalData ? (
    <PersonalDataMenu recipient={recipient} name={name} layout={layout} personalData={personalData} />
  ) : null;
  // The labelled buttons share the row; the More menu, an icon, takes only its own width.
  const columns =
    actions.length === 4
      ? more
        ? 'grid-cols-[repeat(4,minmax(0,1fr))_auto]'
        : 'grid-cols-4'
      : more
        ? 'grid-cols-[repeat(3,minmax(0,1fr))_auto]'
        : 'grid-cols-3';

  if (layout === 'labels') {
    return (
      <div className={cn('grid gap-2', columns)}>
        {actions.map(({ key, label, onClick, danger, busy }) => (
          <Button
            key={key}
            variant="outline"
            size="sm"
            aria-label={`${label} ${name}`}
            disabled={busy}
            onClick={onClick}
            className={cn('px-2', danger && DANGER_ACTION_CLASS)}
          >
            {label}
          </Button>
        ))}
        {more}
      </div>
    );
  }

  return (
    <div className="flex justify-end gap-1">
      {actions.map(({ key, label, icon, onClick, danger, busy }) => (
        <RowIconButton
          key={key}
          label={`${label} ${name}`}
          tooltip={label}
          icon={icon}
          onClick={onClick}
          danger={danger}
          disabled={busy}
        />
      ))}
      {more}
    </div>
  );
}
