/*
 * The languages the product speaks (issue 44). No zod here (its schemas are in
 * language-codes.ts): the screens' chunks read these constants, and a schema beside them would
 * bring zod along to a page that has none.
 */

/**
 * The languages of the staff's screens: adding one is adding its catalogues under
 * src/locales/<language>/ and the tag here.
 */
export const STAFF_LANGUAGES = ['en', 'es'] as const;
export type StaffLanguage = (typeof STAFF_LANGUAGES)[number];
export const STAFF_LANGUAGE_INVALID = `Language must be one of: ${STAFF_LANGUAGES.join(', ')}`;

/**
 * The languages a recipient's messages and page speak (issue 44, decision 066). A language is a
 * catalogue per namespace in `src/locales/<language>/`; adding one is adding its folder and its
 * code here. `pt` is written in Brazilian Portuguese, `zh-Hans` in Simplified Chinese.
 */
export const SUPPORTED_LANGUAGES = ['en', 'es', 'fr', 'de', 'pt', 'zh-Hans'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language named in itself, for the switch on the recipient's page and the staff's selects. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  pt: 'Português (Brasil)',
  'zh-Hans': '简体中文',
};

/** The locale dates, numbers and plural rules are formatted in for each language. */
export const LANGUAGE_LOCALES: Readonly<Record<Language, string>> = {
  en: 'en-US',
  es: 'es',
  fr: 'fr',
  de: 'de',
  pt: 'pt-BR',
  'zh-Hans': 'zh-Hans-CN',
};

export const LANGUAGE_INVALID = `Language must be one of: ${SUPPORTED_LANGUAGES.join(', ')}`;

export const isSupportedLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);

/**
 * The supported language a BCP 47 tag asks for, or null: 'es-MX' -> 'es', 'pt-PT' -> 'pt' (our
 * Portuguese is Brazil's, still the nearest), 'zh-CN', 'zh-SG' and 'zh-Hans-CN' -> 'zh-Hans'.
 * Traditional Chinese ('zh-TW', 'zh-Hant') answers null: Simplified is not what that reader asked
 * for, so the next source (the organization's default) decides. Case and '_' are forgiven.
 */
export function resolveLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const cleaned = tag.trim().replace(/_/g, '-');
  if (!cleaned || cleaned.length > 35) return null;
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(cleaned);
  } catch {
    return null;
  }
  const language = locale.language.toLowerCase();
  if (language === 'zh') {
    const script = locale.script?.toLowerCase();
    const region = locale.region?.toUpperCase();
    if (script === 'hant') return null;
    if (!script && region && ['TW', 'HK', 'MO'].includes(region)) return null;
    return 'zh-Hans';
  }
  return isSupportedLanguage(language) ? language : null;
}

/** The first supported language of a list of preferences (navigator.languages, Accept-Language's tags). */
export function firstSupportedLanguage(tags: readonly string[] | null | undefined): Language | null {
  for (const tag of tags ?? []) {
    const language = resolveLanguage(tag);
    if (language) return language;
  }
  return null;
}

/** The tags of an Accept-Language header in the order of their q values ("fr-CA,fr;q=0.9,en;q=0.5"). */
export function acceptLanguageTags(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((t) => t.tag && t.tag !== '*' && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((t) => t.tag);
}

/**
 * The language a recipient is written to (decision 066), first that is set: their own `language`
 * (the desk, the CSV import, their page's switch, SCIM's preferredLanguage as resolved when it
 * came), SCIM's raw preferredLanguage resolved (a tag stored before the language field existed),
 * the organization's default, English.
 */
export function recipientLanguage(
  recipient: { language?: string | null; preferredLanguage?: string | null } | null | undefined,
  organizationDefault?: string | null,
): Language {
  if (isSupportedLanguage(recipient?.language)) return recipient.language;
  return (
    resolveLanguage(recipient?.preferredLanguage) ??
    (isSupportedLanguage(organizationDefault) ? organizationDefault : DEFAULT_LANGUAGE)
  );
}
