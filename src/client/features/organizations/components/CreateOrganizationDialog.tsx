import { Dialog, DialogContent } from '@/components/ui/dialog';
import { CreateOrganizationForm } from './CreateOrganizationForm';

interface CreateOrganizationDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function CreateOrganizationDialog({ open, onOpenChange }: CreateOrganizationDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Create organization"
        description="Add another property or office. You will be its admin and it starts with a 7-day free trial."
      >
        <CreateOrganizationForm
          idPrefix="new-org"
          cancelLabel="Cancel"
          onCancel={() => onOpenChange(false)}
          onCreated={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}
