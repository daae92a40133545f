import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import { Fragment, createElement, use, useMemo, type ReactNode } from 'react';
import { PSEUDO_LOCALE, useScreenLanguage, type ScreenLanguage } from './language';
import { pseudoMessage } from './pseudo';

/** A message as the build gives it (parsed, scripts/vite/icuCatalogues.ts) or as the tests read it (a string). */
type Message = string | MessageFormatElement[];
type Messages = Record<string, Message>;

export type Values = Record<string, PrimitiveType>;
export type RichValues = Record<string, PrimitiveType | ReactNode | ((chunks: ReactNode[]) => ReactNode)>;

/**
 * One namespace of the staff screens' messages (decision 067): its English messages, bundled with
 * the screens that use them, and a loader per other language, so a page downloads one language's
 * catalogue only, when that language is chosen.
 */
export interface Catalogue<K extends string> {
  readonly english: Record<K, Message>;
  readonly loaders: ReadonlyMap<string, () => Promise<Messages>>;
  readonly loaded: Map<string, Messages>;
  readonly pending: Map<string, Promise<Messages>>;
  readonly formats: Map<string, IntlMessageFormat>;
}

/**
 * `others` is `import.meta.glob('/src/locales/*\/<namespace>.json', { import: 'default' })`: the
 * language is read from each file's folder.
 */
export function defineCatalogue<K extends string>(
  english: Record<K, string>,
  others: Record<string, () => Promise<unknown>>,
): Catalogue<K> {
  const loaders = new Map<string, () => Promise<Messages>>();
  for (const [file, load] of Object.entries(others)) {
    const language = /locales\/([^/]+)\/[^/]+\.json$/.exec(file)?.[1];
    if (language && language !== 'en') loaders.set(language, load as () => Promise<Messages>);
  }
  return { english, loaders, loaded: new Map(), pending: new Map(), formats: new Map() };
}

function load(catalogue: Catalogue<string>, language: string): Promise<Messages> {
  let pending = catalogue.pending.get(language);
  if (!pending) {
    const loader = catalogue.loaders.get(language);
    pending = (loader ? loader() : Promise.resolve(catalogue.english))
      // A catalogue that cannot be fetched (offline before it was ever kept) leaves the screen in English.
      .catch(() => catalogue.english)
      .then((messages) => {
        catalogue.loaded.set(language, messages);
        return messages;
      });
    catalogue.pending.set(language, pending);
  }
  return pending;
}

/** Starts fetching a language's catalogue before a screen needs it (the shell does for its screens). */
export function preloadCatalogue(catalogue: Catalogue<string>, language: ScreenLanguage) {
  if (language !== 'en' && language !== PSEUDO_LOCALE) void load(catalogue, language);
}

function useMessages(catalogue: Catalogue<string>, language: ScreenLanguage): Messages {
  if (language === 'en') return catalogue.english;
  const ready = catalogue.loaded.get(language);
  if (ready) return ready;
  if (language === PSEUDO_LOCALE) {
    const pseudo = Object.fromEntries(Object.entries(catalogue.english).map(([k, m]) => [k, pseudoMessage(m)]));
    catalogue.loaded.set(language, pseudo);
    return pseudo;
  }
  // Suspends the screen (its spinner) until the catalogue is in: never a flash of English.
  return use(load(catalogue, language));
}

export interface Translate<K extends string> {
  (key: K, values?: Values): string;
  /** A message with tags (`<link>…</link>`) drawn by the functions given. */
  rich(key: K, values: RichValues): ReactNode;
  /** The language the messages are in (for `lang` attributes and the switch). */
  language: ScreenLanguage;
}

function translator<K extends string>(
  catalogue: Catalogue<K>,
  language: ScreenLanguage,
  messages: Messages,
): Translate<K> {
  // The pseudo-locale formats numbers and plurals as English.
  const locale = language === PSEUDO_LOCALE ? 'en' : language;
  const formatOf = (key: K) => {
    const id = `${language}\u0000${key}`;
    let format = catalogue.formats.get(id);
    if (!format) {
      // A key missing from a catalogue falls back to English (the catalogue check in CI refuses it).
      format = new IntlMessageFormat(messages[key] ?? catalogue.english[key], locale);
      catalogue.formats.set(id, format);
    }
    return format;
  };
  const t = ((key: K, values?: Values) => String(formatOf(key).format(values))) as Translate<K>;
  t.rich = (key, values) => {
    const parts = formatOf(key).format<ReactNode>(values as Record<string, ReactNode>);
    return Array.isArray(parts) ? parts.map((part, n) => createElement(Fragment, { key: n }, part)) : parts;
  };
  t.language = language;
  return t;
}

/** A namespace's translate function outside React (unit tests, code that runs before a screen). */
export async function translatorIn<K extends string>(
  catalogue: Catalogue<K>,
  language: ScreenLanguage,
): Promise<Translate<K>> {
  const messages = language === 'en' ? catalogue.english : await load(catalogue, language);
  return translator(catalogue, language, messages);
}

/** The translate function of a namespace in the screens' current language. */
export function useT<K extends string>(catalogue: Catalogue<K>): Translate<K> {
  const language = useScreenLanguage();
  const messages = useMessages(catalogue, language);
  return useMemo(() => translator(catalogue, language, messages), [catalogue, language, messages]);
}
