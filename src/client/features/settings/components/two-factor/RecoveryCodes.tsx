import { Copy, Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { saveBlob } from '@/lib/download';

/** Recovery codes, shown once: to copy, download or write down. */
export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const text = `Pigeonhole recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast({ title: 'Recovery codes copied' });
    } catch {
      toast({
        title: 'Could not copy',
        description: 'Select the codes and copy them instead.',
        variant: 'destructive',
      });
    }
  };
  const download = () => saveBlob(new Blob([text], { type: 'text/plain' }), 'pigeonhole-recovery-codes.txt');
  return (
    <div className="space-y-3">
      <p className="rounded-lg bg-amber-50 dark:bg-amber-950/40 p-3 text-sm text-amber-900 dark:text-amber-300">
        Save these codes somewhere safe, away from your phone. Each one signs you in once if you lose your phone. They
        are shown only now.
      </p>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-2 rounded-lg border border-line bg-surface-subtle p-3 font-mono text-sm"
      >
        {codes.map((code) => (
          <li key={code} className="text-center text-fg">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
          <Copy aria-hidden /> Copy codes
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={download}>
          <Download aria-hidden /> Download
        </Button>
      </div>
    </div>
  );
}
