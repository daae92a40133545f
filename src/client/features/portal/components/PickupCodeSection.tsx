import type { PortalMe } from '@contract';
import { RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useRenewPickupCode } from '../api/pickupCode';
import { Section } from './Section';
import { usePortalI18n } from '../i18n';

/** The code and its QR, which the recipient shows at the desk, and a new one on request. */
export function PickupCodeSection({ pickupCode }: { pickupCode: PortalMe['pickupCode'] }) {
  const renew = useRenewPickupCode();
  const { t } = usePortalI18n();
  function askForNew() {
    if (!window.confirm(t('code.confirmNew'))) return;
    renew.mutate();
  }
  return (
    <Section title={t('code.title')} description={t('code.description')}>
      <div className="flex flex-col items-center gap-3">
        <div
          className="w-40 rounded-lg bg-white p-2"
          role="img"
          aria-label={t('code.qrAlt', { code: pickupCode.code })}
          // The server draws this SVG from the code alone (uqr): no text of anyone's in it.
          dangerouslySetInnerHTML={{ __html: pickupCode.qrCodeSvg }}
        />
        <p className="font-mono text-3xl font-semibold tracking-widest text-fg" data-testid="pickup-code">
          {pickupCode.code}
        </p>
        <Button variant="outline" size="sm" onClick={askForNew} disabled={renew.isPending}>
          <RefreshCw aria-hidden /> {t('code.new')}
        </Button>
      </div>
    </Section>
  );
}
