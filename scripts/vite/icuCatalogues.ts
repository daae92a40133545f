import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);
const CATALOGUE = /[\\/]src[\\/]locales[\\/][^\\/]+[\\/][^\\/]+\.json$/;

/**
 * The screens' catalogues (src/locales/<language>/<namespace>.json, ICU MessageFormat) reach the
 * browser parsed: each message becomes the AST intl-messageformat formats, so the page carries
 * its formatter without the ICU parser (2.6 KB instead of 10 KB gzip: the signed-out pages are
 * budgeted at 100 KB, decision 067). The JSON stays JSON (Vite's own JSON plugin makes the
 * module), only its strings are replaced; a message that does not parse fails the build.
 * The server and the tests read the catalogues as strings and parse them there.
 */
export function icuCatalogues(): Plugin {
  return {
    name: 'pigeonhole-icu-catalogues',
    enforce: 'pre',
    config: () => ({
      resolve: {
        alias: [
          {
            find: /^@formatjs\/icu-messageformat-parser$/,
            replacement: require.resolve('@formatjs/icu-messageformat-parser/no-parser.js'),
          },
        ],
      },
    }),
    async load(id) {
      const file = id.split('?')[0]!;
      if (!CATALOGUE.test(file)) return null;
      const messages = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, string>;
      const parsed: Record<string, unknown> = {};
      for (const [key, message] of Object.entries(messages)) {
        try {
          parsed[key] = parse(message);
        } catch (err) {
          throw new Error(`${file}: "${key}" is not ICU MessageFormat: ${(err as Error).message}`);
        }
      }
      return JSON.stringify(parsed);
    },
  };
}
