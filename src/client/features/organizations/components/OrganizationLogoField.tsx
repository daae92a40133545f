import { Building2, ImageOff } from 'lucide-react';
import { useState } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';

/** Only http(s) addresses are previewed; anything else waits for the form's validation. */
function previewable(url: string): boolean {
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

interface LogoPreviewProps {
  url: string;
  name: string;
}

/** The logo as it will appear, or a placeholder when there is none or it cannot be loaded. */
export function LogoPreview({ url, name }: LogoPreviewProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const show = previewable(url) && failedUrl !== url;
  const failed = previewable(url) && failedUrl === url;

  return (
    <div className="flex items-center gap-4">
      <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-xl border border-line bg-surface-subtle">
        {show ? (
          <img
            src={url}
            alt={`${name || 'Organization'} logo`}
            className="size-full object-contain p-1.5"
            referrerPolicy="no-referrer"
            onError={() => setFailedUrl(url)}
          />
        ) : failed ? (
          <ImageOff aria-hidden className="size-7 text-fg-faint" />
        ) : (
          <Building2 aria-hidden className="size-7 text-fg-faint" />
        )}
      </div>
      <p className="text-sm text-fg-subtle" role={failed ? 'status' : undefined}>
        {failed
          ? 'This image could not be loaded. Check that the address is public and points to an image.'
          : show
            ? 'Preview. Square images of at least 128 × 128 pixels look best.'
            : 'No logo yet. Paste the address of an image (PNG, SVG or JPEG).'}
      </p>
    </div>
  );
}

interface OrganizationLogoFieldProps {
  id: string;
  url: string;
  name: string;
  error?: FieldError;
  registration: UseFormRegisterReturn;
}

/** Logo URL with a live preview. */
export function OrganizationLogoField({ id, url, name, error, registration }: OrganizationLogoFieldProps) {
  return (
    <div className="space-y-3">
      <FormField id={id} label="Logo URL" optional error={error?.message}>
        <Input
          {...fieldA11y(id, error?.message)}
          type="url"
          inputMode="url"
          placeholder="https://example.com/logo.png"
          {...registration}
        />
      </FormField>
      <LogoPreview url={url} name={name} />
    </div>
  );
}
