import type { NotifyChannel, PortalMe } from '@contract';
import { useState } from 'react';
import { useSetNotifyChannels } from '../api/preferences';
import { usePortalI18n } from '../i18n';
import { Section } from './Section';

type T = ReturnType<typeof usePortalI18n>['t'];

/** What each channel does for this person, under its name, in the page's language. */
function hintOf(channel: NotifyChannel, me: PortalMe, t: T): string {
  switch (channel) {
    case 'email':
      return me.recipient.email ? t('preferences.hint.email', { email: me.recipient.email }) : '';
    case 'sms':
      return me.recipient.phone ? t('preferences.hint.sms', { phone: me.recipient.phone }) : '';
    case 'slack':
      return t('preferences.hint.slack');
    case 'teams':
      return t('preferences.hint.teams');
  }
}

/**
 * How the recipient wants to hear (decision 065): exactly the channels the organization has and
 * that reach them (the server's channelsOffered), any of them, at least one. Every channel ticked
 * is saved as "every channel offered" (null), so a channel the desk adds later reaches them too.
 */
export function PreferencesSection({ me }: { me: PortalMe }) {
  const save = useSetNotifyChannels();
  const { t } = usePortalI18n();
  const offered = me.channelsOffered;
  // Shown at once; the server's answer confirms it (or the old choice comes back).
  const [choosing, setChoosing] = useState<NotifyChannel[] | null | undefined>(undefined);
  const stored = choosing === undefined ? me.recipient.notifyChannels : choosing;
  const chosen = new Set(stored?.filter((c) => offered.includes(c)).length ? stored : offered);

  function toggle(channel: NotifyChannel, on: boolean) {
    const next = offered.filter((c) => (c === channel ? on : chosen.has(c)));
    if (next.length === 0) return;
    const value = next.length === offered.length ? null : next;
    setChoosing(value);
    save.mutate(value, { onSettled: () => setChoosing(undefined) });
  }

  return (
    <Section title={t('preferences.title')} description={t('preferences.description')}>
      {offered.length === 0 ? (
        <p className="text-sm text-fg-subtle">{t('preferences.none', { organization: me.organization.name })}</p>
      ) : (
        <fieldset className="space-y-2">
          <legend className="sr-only">{t('preferences.legend')}</legend>
          {offered.map((channel) => {
            const checked = chosen.has(channel);
            // The last channel left cannot be turned off: nobody could tell them anything.
            const last = checked && chosen.size === 1;
            const hint = hintOf(channel, me, t);
            return (
              <label
                key={channel}
                className={`flex items-start gap-3 rounded-lg border p-3 text-sm ${
                  checked ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950' : 'border-line'
                } ${last ? 'cursor-default' : 'cursor-pointer'}`}
              >
                <input
                  type="checkbox"
                  name="notify-channels"
                  value={channel}
                  className="mt-0.5 accent-indigo-600"
                  checked={checked}
                  disabled={last}
                  // Named by the channel alone; its hint (and why the last one is locked) describe it.
                  aria-labelledby={`notify-${channel}`}
                  aria-describedby={
                    [hint && `notify-${channel}-hint`, last && 'notify-last'].filter(Boolean).join(' ') || undefined
                  }
                  onChange={(event) => toggle(channel, event.target.checked)}
                />
                <span className="min-w-0">
                  <span id={`notify-${channel}`} className="font-medium text-fg">
                    {t(`preferences.channel.${channel}`)}
                  </span>
                  {hint && (
                    <span id={`notify-${channel}-hint`} className="block text-xs break-words text-fg-subtle">
                      {hint}
                    </span>
                  )}
                </span>
              </label>
            );
          })}
        </fieldset>
      )}
      {offered.length > 0 && (
        <p id="notify-last" className="mt-2 text-xs text-fg-subtle">
          {offered.length === 1
            ? t('preferences.onlyOne', { organization: me.organization.name })
            : t('preferences.keepOne')}
        </p>
      )}
      {me.smsAvailable && !me.recipient.phone && (
        <p className="mt-1 text-xs text-fg-subtle">{t('preferences.addMobile')}</p>
      )}
      <p role="status" className="mt-2 h-4 text-xs text-emerald-700 dark:text-emerald-400">
        {save.isSuccess ? t('preferences.saved') : ''}
      </p>
    </Section>
  );
}
