import type { MailItemSummary } from '@contract';
import { useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { recipientFullName, typeLabel } from '../mailItemFormat';

function FullPhoto({ item }: { item: MailItemSummary }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <p className="py-10 text-center text-sm text-fg-subtle">Failed to load image</p>;
  return (
    <img
      src={item.photoUrl!}
      alt={`Package photo: ${typeLabel(item.type)} for ${recipientFullName(item)}`}
      className="mx-auto max-h-[70dvh] w-auto rounded-md bg-surface-muted object-contain"
      onError={() => setFailed(true)}
    />
  );
}

/** The full-size package photo. */
export function PhotoDialog({
  item,
  onOpenChange,
}: {
  item: MailItemSummary | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={item !== null && Boolean(item.photoUrl)} onOpenChange={onOpenChange}>
      {item?.photoUrl && (
        <DialogContent
          title="Package Photo"
          description={`${typeLabel(item.type)} for ${recipientFullName(item)}`}
          className="max-w-3xl"
        >
          <FullPhoto item={item} />
        </DialogContent>
      )}
    </Dialog>
  );
}
