import { firstSupportedLanguage, type Language, type PortalMe } from '@contract';
import { createTranslator, LANGUAGE_LOCALES, type Catalogue, type Translate } from '../../../contract/i18n';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ENGLISH, loadCatalogue } from '@/lib/catalogues';

/*
 * The recipient's page in their language (decision 066): English is part of the page (the
 * fallback of every key), another language's catalogue its own chunk (lib/catalogues.ts).
 */
const english = ENGLISH.portal;

/** The page's catalogue in one language: English at once, the others from their chunk. */
export const loadPortalCatalogue = (language: Language): Promise<Catalogue> => loadCatalogue('portal', language);

/**
 * Which language the page speaks (decision 066): the recipient's own, else the browser's first
 * supported language (navigator.languages), else the organization's default.
 */
export function pageLanguage(me: Pick<PortalMe, 'recipient' | 'organization'> | undefined): Language {
  const browser = typeof navigator === 'undefined' ? null : firstSupportedLanguage(navigator.languages);
  return me?.recipient.language ?? browser ?? me?.organization.defaultLanguage ?? 'en';
}

/** Before the page knows who is signed in: the browser's language. */
export const browserLanguage = (): Language => pageLanguage(undefined);

type PortalI18n = {
  language: Language;
  locale: string;
  t: Translate;
  /** A moment as this language writes it ("7 dic 2026, 15:00"). */
  dateTime: (iso: string) => string;
  /** A calendar day as this language writes it ("jue, 3 dic"). */
  day: (date: Date) => string;
};

function portalI18n(language: Language, catalogue: Catalogue): PortalI18n {
  const locale = LANGUAGE_LOCALES[language];
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const day = new Intl.DateTimeFormat(locale, { weekday: 'short', month: 'short', day: 'numeric' });
  return {
    language,
    locale,
    t: createTranslator(language, catalogue, english),
    dateTime: (iso) => dateTime.format(new Date(iso)),
    day: (date) => day.format(date),
  };
}

const PortalI18nContext = createContext<PortalI18n>(portalI18n('en', english));

/**
 * Gives the page its language: the catalogue loaded (the page shows the previous language, or
 * English, while a chunk of a few kilobytes arrives), `<html lang>` set to match.
 */
export function PortalI18nProvider({ language, children }: { language: Language; children: ReactNode }) {
  const [loaded, setLoaded] = useState<{ language: Language; catalogue: Catalogue }>({
    language: 'en',
    catalogue: english,
  });
  useEffect(() => {
    let current = true;
    void loadPortalCatalogue(language).then((catalogue) => {
      if (current) setLoaded({ language, catalogue });
    });
    return () => {
      current = false;
    };
  }, [language]);
  useEffect(() => {
    document.documentElement.lang = loaded.language;
    return () => {
      document.documentElement.lang = 'en';
    };
  }, [loaded.language]);
  const value = useMemo(() => portalI18n(loaded.language, loaded.catalogue), [loaded]);
  return <PortalI18nContext.Provider value={value}>{children}</PortalI18nContext.Provider>;
}

export const usePortalI18n = () => useContext(PortalI18nContext);
