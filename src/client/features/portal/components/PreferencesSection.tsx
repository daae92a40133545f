import type { NotifyBy, PortalMe } from '@contract';
import { useState } from 'react';
import { useSetNotifyBy } from '../api/preferences';
import { Section } from './Section';

import { usePortalI18n } from '../i18n';

const CHOICES: Array<{ value: NotifyBy; label: string; hint: string }> = [
  { value: 'both', label: 'preferences.both', hint: 'preferences.bothHint' },
  { value: 'email', label: 'preferences.email', hint: '' },
  { value: 'sms', label: 'preferences.sms', hint: '' },
];

/** How the recipient wants to hear: by email, SMS or both, as far as they can be reached. */
export function PreferencesSection({ me }: { me: PortalMe }) {
  const save = useSetNotifyBy();
  const { t } = usePortalI18n();
  // Shown at once; the server's answer confirms it (or the old choice comes back).
  const [choosing, setChoosing] = useState<NotifyBy | null>(null);
  const choice = choosing ?? me.recipient.notifyBy;
  const smsPossible = me.smsAvailable && !!me.recipient.phone;
  const emailPossible = !!me.recipient.email;
  function choose(notifyBy: NotifyBy) {
    setChoosing(notifyBy);
    save.mutate(notifyBy, { onSettled: () => setChoosing(null) });
  }
  return (
    <Section title={t('preferences.title')} description={t('preferences.description')}>
      <fieldset className="space-y-2">
        <legend className="sr-only">{t('preferences.legend')}</legend>
        {CHOICES.map((c) => {
          const disabled = (c.value === 'sms' && !smsPossible) || (c.value === 'email' && !emailPossible);
          return (
            <label
              key={c.value}
              className={`flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm ${
                choice === c.value ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950' : 'border-line'
              } ${disabled ? 'cursor-not-allowed opacity-50' : ''}`}
            >
              <input
                type="radio"
                name="notify-by"
                value={c.value}
                className="mt-0.5 accent-indigo-600"
                checked={choice === c.value}
                disabled={disabled}
                onChange={() => choose(c.value)}
              />
              <span>
                <span className="font-medium text-fg">{t(c.label)}</span>
                {c.hint && <span className="block text-xs text-fg-subtle">{t(c.hint)}</span>}
              </span>
            </label>
          );
        })}
      </fieldset>
      {!smsPossible && (
        <p className="mt-2 text-xs text-fg-subtle">
          {me.smsAvailable ? t('preferences.addMobile') : t('preferences.emailOnly')}
        </p>
      )}
      <p role="status" className="mt-2 h-4 text-xs text-emerald-700 dark:text-emerald-400">
        {save.isSuccess ? t('preferences.saved') : ''}
      </p>
    </Section>
  );
}
