import fs from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { STAFF_LANGUAGES, SUPPORTED_LANGUAGES } from '../contract/languages';

/*
 * The catalogues' check (issue 44, decisions 066 and 067): every message of English is in every
 * language its namespace must speak, with nothing extra; each parses as ICU MessageFormat; and
 * each takes the same placeholders as English's, so a translation can neither drop the pickup
 * code nor ask for a value nobody passes. `gender` is the one argument a language may add: the
 * recipients' messages pass a type's grammatical gender to every sentence, and only languages
 * whose grammar agrees with it use it.
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

/** The recipients' namespaces speak every supported language; the staff screens' the staff languages. */
const RECIPIENT_NAMESPACES = new Set(['messages', 'portal']);
const required = (namespace: string): readonly string[] =>
  RECIPIENT_NAMESPACES.has(namespace) ? SUPPORTED_LANGUAGES : STAFF_LANGUAGES;
const OPTIONAL_ARGUMENTS = new Set(['gender']);

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
/** The recipients' formatter reads tags as text (contract/i18n.ts); the screens' draw them. */
const namesOf = (namespace: string, message: string) =>
  [...placeholders(parse(message, { ignoreTag: RECIPIENT_NAMESPACES.has(namespace) }))].sort();

describe('the catalogues (src/locales)', () => {
  it('are one folder per supported language, with English for every namespace', () => {
    expect(namespaces.length).toBeGreaterThan(0);
    expect([...languages].sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
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
        const problems: string[] = [];
        for (const [key, message] of Object.entries(messages)) {
          if (typeof message !== 'string' || message.trim() === '') {
            problems.push(`${key}: empty`);
            continue;
          }
          let used: string[];
          try {
            used = namesOf(namespace, message);
          } catch (err) {
            problems.push(`${key}: not ICU (${(err as Error).message})`);
            continue;
          }
          const wanted = namesOf(namespace, english[key]!);
          const missing = wanted.filter((a) => !used.includes(a));
          const extra = used.filter((a) => !wanted.includes(a) && !OPTIONAL_ARGUMENTS.has(a));
          if (missing.length) problems.push(`${key}: lacks ${missing.join(', ')}`);
          if (extra.length) problems.push(`${key}: has ${extra.join(', ')}, which English has not`);
        }
        expect(problems).toEqual([]);
      },
    );
  });
});
