import { Monitor, Moon, Sun } from 'lucide-react';
import { setThemePreference, useThemePreference, type ThemePreference } from '@/lib/theme';
import { useT } from '@/lib/i18n/catalogue';
import { accountMessages } from '@/lib/i18n/namespaces/account';
import { ChoiceCard, type Choice } from './ChoiceCard';

/** The colour theme of the app in this browser: the system's, or always light or dark. */
export function AppearanceCard() {
  const t = useT(accountMessages);
  const preference = useThemePreference();
  const choices: Choice<ThemePreference>[] = [
    { value: 'system', label: t('appearance.system'), hint: t('appearance.systemHint'), icon: Monitor },
    { value: 'light', label: t('appearance.light'), hint: t('appearance.lightHint'), icon: Sun },
    { value: 'dark', label: t('appearance.dark'), hint: t('appearance.darkHint'), icon: Moon },
  ];
  return (
    <ChoiceCard
      id="appearance"
      name="theme"
      title={t('appearance.title')}
      description={t('appearance.description')}
      choices={choices}
      value={preference}
      onChange={setThemePreference}
    />
  );
}
