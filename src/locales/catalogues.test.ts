import fs from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { STAFF_LANGUAGES } from '../contract/languages';

/*
 * The catalogues' check (issue 44, decision 067): every message of English is in every language
 * its namespace must speak, with nothing extra; each parses as ICU MessageFormat; and each takes
 * the same placeholders as English's, so a translation can neither drop the pickup code nor ask
 * for a value nobody passes.
 */
const ROOT = path.dirname(new URL(import.meta.url).pathname);
const languages = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const namespaces = fs
  .readdirSync(path.join(ROOT, 'en'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));

/** The languages each namespace must have: the staff screens' unless listed. */
const REQUIRED: Record<string, readonly string[]> = {};
const required = (namespace: string) => REQUIRED[namespace] ?? STAFF_LANGUAGES;

const read = (language: string, namespace: string): Record<string, string> | undefined => {
  const file = path.join(ROOT, language, `${namespace}.json`);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : undefined;
};

/** The names a message asks for (arguments, plurals, selects, tags), sorted. */
function placeholders(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    into.add(element.type === TYPE.tag ? `<${element.value}>` : element.value);
    if (element.type === TYPE.tag) placeholders(element.children, into);
    if (element.type === TYPE.select || element.type === TYPE.plural)
      for (const option of Object.values(element.options)) placeholders(option.value, into);
  }
  return into;
}
const namesOf = (message: string) => [...placeholders(parse(message))].sort();

describe('the catalogues (src/locales)', () => {
  it('has English for every namespace and only known languages', () => {
    expect(namespaces.length).toBeGreaterThan(0);
    for (const language of STAFF_LANGUAGES) expect(languages).toContain(language);
  });

  describe.each(namespaces)('%s', (namespace) => {
    const english = read('en', namespace)!;

    it.each(required(namespace).filter((l) => l !== 'en'))('is in %s', (language) => {
      expect(read(language, namespace), `src/locales/${language}/${namespace}.json`).toBeDefined();
    });

    it.each(languages.filter((l) => read(l, namespace)))(
      '%s: the same keys as English, each ICU with the same placeholders',
      (language) => {
        const messages = read(language, namespace)!;
        expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
        for (const [key, message] of Object.entries(messages)) {
          expect(typeof message, `${language}/${namespace}: ${key}`).toBe('string');
          expect(() => parse(message), `${language}/${namespace}: ${key}`).not.toThrow();
          expect(namesOf(message), `${language}/${namespace}: ${key}`).toEqual(namesOf(english[key]!));
          expect(message.trim(), `${language}/${namespace}: ${key} is empty`).not.toBe('');
        }
      },
    );
  });
});
