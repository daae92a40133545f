import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import { DEFAULT_LANGUAGE, LANGUAGE_LOCALES, type Language } from './languages';

/*
 * Catalogues and their formatter (decision 066): one JSON file per language and namespace,
 * `src/locales/<language>/<namespace>.json`, flat keys, ICU MessageFormat strings (plurals,
 * select) formatted by FormatJS's intl-messageformat, the same on the server and in the browser.
 * The language helpers live in ./languages (no dependency), re-exported here; this module is
 * imported by what formats, so a page that formats nothing does not carry the runtime.
 */
export * from './languages';

/** A catalogue: key -> ICU message. */
export type Catalogue = Readonly<Record<string, string>>;
export type MessageValues = Record<string, PrimitiveType>;
export type Translate = (key: string, values?: MessageValues) => string;

/**
 * Compiled messages, per catalogue and key: a message is parsed once per process (or page), not
 * per use. Keyed by the catalogue object, not the message's text: in the browser a message is the
 * build's parsed form (scripts/vite/icuCatalogues.ts, decision 067), not a string.
 */
const compiled = new WeakMap<Catalogue, Map<string, IntlMessageFormat>>();
let compiledCount = 0;

/** How many messages are compiled (tests read it to prove the cache is used). */
export const compiledMessageCount = () => compiledCount;

/**
 * A formatter of one language's catalogue. A key the catalogue lacks falls back to `fallback`
 * (English's, when given), then to the key itself, so a missing translation shows English rather
 * than nothing; the catalogue test keeps every key in every catalogue.
 */
export function createTranslator(language: Language, catalogue: Catalogue, fallback?: Catalogue): Translate {
  const locale = LANGUAGE_LOCALES[language] ?? LANGUAGE_LOCALES[DEFAULT_LANGUAGE];
  return (key, values) => {
    const own = catalogue[key];
    const source = own ?? fallback?.[key];
    if (source === undefined) return key;
    const owner = own !== undefined ? catalogue : fallback!;
    const messageLocale = own !== undefined ? locale : LANGUAGE_LOCALES[DEFAULT_LANGUAGE];
    let messages = compiled.get(owner);
    if (!messages) compiled.set(owner, (messages = new Map()));
    let message = messages.get(key);
    if (!message) {
      message = new IntlMessageFormat(source, messageLocale, undefined, { ignoreTag: true });
      messages.set(key, message);
      compiledCount += 1;
    }
    return String(message.format(values));
  };
}
