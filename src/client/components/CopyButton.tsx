import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

/**
 * Copies `value` to the clipboard and says so for two seconds. Without a clipboard (an insecure
 * context) it selects the input named by `inputId`, so Ctrl+C works.
 */
export function CopyButton({ value, label, inputId }: { value: string; label: string; inputId: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      (document.getElementById(inputId) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <Button variant="outline" onClick={() => void copy()} aria-label={label}>
      {copied ? <Check aria-hidden className="text-emerald-600 dark:text-emerald-400" /> : <Copy aria-hidden />}
      <span className="hidden sm:inline">{copied ? 'Copied' : 'Copy'}</span>
    </Button>
  );
}

/** A read-only value (a key, a DNS record) selected on focus, with its Copy button. */
export function CopyField({ id, value, copyLabel }: { id: string; value: string; copyLabel: string }) {
  return (
    <div className="flex gap-2">
      <Input
        id={id}
        readOnly
        value={value}
        onFocus={(event) => event.currentTarget.select()}
        className="font-mono text-xs"
      />
      <CopyButton value={value} label={copyLabel} inputId={id} />
    </div>
  );
}
