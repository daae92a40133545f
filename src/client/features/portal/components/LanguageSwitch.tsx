import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, isSupportedLanguage } from '@contract';
import { Languages } from 'lucide-react';
import { useSetPortalLanguage } from '../api/language';
import { usePortalI18n } from '../i18n';

/**
 * The page's language switch (decision 066): saved as the recipient's language, so the messages
 * they are sent follow it too. Each language is named in itself.
 */
export function LanguageSwitch() {
  const { language, t } = usePortalI18n();
  const save = useSetPortalLanguage();
  return (
    <label className="flex items-center gap-1.5 text-sm text-fg-secondary">
      <Languages aria-hidden className="size-4" />
      <span className="sr-only">{t('page.language')}</span>
      <select
        className="h-8 max-w-[9.5rem] rounded-md border border-line bg-surface px-2 text-sm text-fg"
        value={save.isPending && isSupportedLanguage(save.variables) ? save.variables : language}
        disabled={save.isPending}
        data-testid="portal-language"
        onChange={(e) => {
          if (isSupportedLanguage(e.target.value)) save.mutate(e.target.value);
        }}
      >
        {SUPPORTED_LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
