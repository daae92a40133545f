import { createTranslator, DEFAULT_LANGUAGE, type Catalogue, type Language, type Translate } from '../../contract/i18n';
import de from '../../locales/de/messages.json';
import en from '../../locales/en/messages.json';
import es from '../../locales/es/messages.json';
import fr from '../../locales/fr/messages.json';
import pt from '../../locales/pt/messages.json';
import zhHans from '../../locales/zh-Hans/messages.json';

/*
 * The server's catalogues (decision 066): what it writes to recipients (messages, the link email,
 * the unsubscribe page), one `messages.json` per language. All six are bundled with the server;
 * the browser loads its own namespace per language on demand.
 */
export const MESSAGE_CATALOGUES: Readonly<Record<Language, Catalogue>> = {
  en,
  es,
  fr,
  de,
  pt,
  'zh-Hans': zhHans,
};

const translators = new Map<Language, Translate>();

/** The recipient messages' formatter in a language; English's string stands in for a missing key. */
export function messagesIn(language: Language | null | undefined): Translate {
  const lang = language && MESSAGE_CATALOGUES[language] ? language : DEFAULT_LANGUAGE;
  let t = translators.get(lang);
  if (!t) {
    t = createTranslator(lang, MESSAGE_CATALOGUES[lang], MESSAGE_CATALOGUES[DEFAULT_LANGUAGE]);
    translators.set(lang, t);
  }
  return t;
}
