import { UserRoundX } from 'lucide-react';
import { Button } from '@/components/ui/button';

/**
 * Log Mail's way out when the label names nobody the desk can find (decision 041): the item is
 * logged as it is (photo, tracking number, courier, storage) and waits under Needs a recipient.
 */
export function LogWithoutRecipientButton({ onClick, disabled }: { onClick: () => void; disabled?: boolean }) {
  return (
    <Button
      variant="outline"
      onClick={onClick}
      disabled={disabled}
      title="Log it now and choose the recipient later, under Needs a recipient"
    >
      <UserRoundX aria-hidden /> Log without recipient
    </Button>
  );
}
