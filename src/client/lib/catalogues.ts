import type { Language } from '@contract';
import type { Catalogue } from '../../contract/i18n';
import englishPortal from '../../locales/en/portal.json';

/*
 * The browser's catalogues (decision 066): `src/locales/<language>/<namespace>.json`. English's
 * are part of the pages that use them (every key falls back to English); every other language's
 * file is a chunk of its own, fetched only when that language is chosen, so a page's first load
 * does not carry the languages it does not show. The server's `messages` namespace is not here.
 */
const lazy = import.meta.glob<Catalogue>(['../../locales/*/*.json', '!../../locales/en/*.json'], {
  import: 'default',
});

export type ClientNamespace = 'portal';

/** English's catalogue of a namespace: the fallback of every language's. */
export const ENGLISH: Readonly<Record<ClientNamespace, Catalogue>> = { portal: englishPortal };

/** One language's catalogue of a namespace: English at once, another from its own chunk. */
export async function loadCatalogue(namespace: ClientNamespace, language: Language): Promise<Catalogue> {
  if (language === 'en') return ENGLISH[namespace];
  const load = lazy[`../../locales/${language}/${namespace}.json`];
  return load ? load() : ENGLISH[namespace];
}
