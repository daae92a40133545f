import type { Integration } from '@contract';
import type { ReactNode } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';

/** What the list gives each of its integration dialogs: the chosen one (null: closed). */
export interface ChosenIntegrationProps {
  organizationId: string;
  integration: Integration | null;
  onClose: () => void;
}

/**
 * A dialog about one integration (its keys, its deliveries, a test): open while the list has one
 * chosen, titled "<what>: <its name>", closed by setting the choice back to null.
 */
export function IntegrationDialog({
  integration,
  onClose,
  title,
  description,
  className,
  children,
}: {
  integration: Integration | null;
  onClose: () => void;
  /** What the dialog shows of the integration ("API keys"); its name follows. */
  title: string;
  description?: string;
  className?: string;
  children: (integration: Integration) => ReactNode;
}) {
  return (
    <Dialog open={Boolean(integration)} onOpenChange={(open) => !open && onClose()}>
      {integration && (
        <DialogContent title={`${title}: ${integration.name}`} description={description} className={className}>
          {children(integration)}
        </DialogContent>
      )}
    </Dialog>
  );
}
