import { AlertTriangle } from 'lucide-react';
import { useId } from 'react';
import { CopyField } from '@/components/CopyButton';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';

interface SecretBoxProps {
  label: string;
  value: string;
}

/** A read-only secret with a Copy button and the warning that it will not be shown again. */
export function SecretBox({ label, value }: SecretBoxProps) {
  const id = useId();
  return (
    <div className="space-y-3">
      <p className="flex items-start gap-2 rounded-lg border border-amber-200 dark:border-amber-800 bg-amber-50 dark:bg-amber-950/40 px-3 py-2 text-sm text-amber-900 dark:text-amber-300">
        <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span>
          <strong className="font-semibold">Copy it now.</strong> For your security it is shown only once; if it is
          lost, create a new one.
        </span>
      </p>
      <div className="space-y-1.5">
        <Label htmlFor={id}>{label}</Label>
        <CopyField id={id} value={value} copyLabel={`Copy ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}

export interface RevealedSecret {
  title: string;
  description: string;
  label: string;
  value: string;
}

/** A dialog showing a just-created secret (API key, webhook signing secret) once. */
export function SecretRevealDialog({ secret, onClose }: { secret: RevealedSecret | null; onClose: () => void }) {
  return (
    <Dialog open={Boolean(secret)} onOpenChange={(open) => !open && onClose()}>
      {secret && (
        <DialogContent title={secret.title} description={secret.description}>
          <SecretBox label={secret.label} value={secret.value} />
          <div className="mt-6 flex justify-end">
            <Button onClick={onClose}>I have copied it</Button>
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
