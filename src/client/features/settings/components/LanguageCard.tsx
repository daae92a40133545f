import { STAFF_LANGUAGES, type StaffLanguage, type User } from '@contract';
import { Globe, Languages } from 'lucide-react';
import { useT } from '@/lib/i18n/catalogue';
import { browserLanguage } from '@/lib/i18n/language';
import { accountMessages } from '@/lib/i18n/namespaces/account';
import { toastFailure } from '@/lib/useErrorToast';
import { useUpdateLanguage } from '../api/updateLanguage';
import { ChoiceCard, type Choice } from './ChoiceCard';

type LanguageChoice = StaffLanguage | 'browser';

/**
 * The screens' language, kept on the account (every device the person signs in on): this
 * browser's by default. Each language is named in itself, so whoever cannot read the current one
 * still finds theirs.
 */
export function LanguageCard({ user }: { user: User }) {
  const t = useT(accountMessages);
  const update = useUpdateLanguage();
  const browser = browserLanguage() ?? 'en';
  const choices: Choice<LanguageChoice>[] = [
    {
      value: 'browser',
      label: t('language.browser'),
      hint: t('language.browserHint', { language: t(`language.name.${browser}`) }),
      icon: Globe,
    },
    ...STAFF_LANGUAGES.map((language) => ({
      value: language,
      label: t(`language.name.${language}`),
      hint: language.toUpperCase(),
      icon: Languages,
      lang: language,
    })),
  ];
  const choose = (value: LanguageChoice) =>
    // No toast on success: the screens redrawing in the language say it (and a toast would be in the old one).
    update.mutate(value === 'browser' ? null : value, {
      onError: (err) => toastFailure(t('language.failed'), err),
    });
  return (
    <ChoiceCard
      id="language"
      name="language"
      title={t('language.title')}
      description={t('language.description')}
      choices={choices}
      value={update.isPending ? (update.variables ?? 'browser') : (user.language ?? 'browser')}
      onChange={choose}
      disabled={update.isPending}
    />
  );
}
