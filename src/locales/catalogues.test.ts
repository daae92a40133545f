import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_LOCALES, SUPPORTED_LANGUAGES } from '../contract/languages';

/*
 * Every catalogue (decision 066): each language's folder has every namespace English has, each
 * with English's keys exactly (none missing, none extra), every string valid ICU MessageFormat,
 * using the same arguments as English's string. `gender` is the one argument a language may add:
 * the renderer passes a type's grammatical gender to every sentence, and only languages whose
 * grammar agrees with it (Spanish, French, German, Portuguese) use it.
 */
const root = path.dirname(fileURLToPath(import.meta.url));
const OPTIONAL_ARGUMENTS = new Set(['gender']);

const read = (language: string, namespace: string): Record<string, string> =>
  JSON.parse(fs.readFileSync(path.join(root, language, `${namespace}.json`), 'utf8')) as Record<string, string>;

const namespaces = fs
  .readdirSync(path.join(root, 'en'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));

/** The arguments a message uses, inside select and plural branches too. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      argumentsOf(el.children, into);
      continue;
    }
    into.add(el.value);
    if (el.type === TYPE.select || el.type === TYPE.plural) {
      for (const option of Object.values(el.options)) argumentsOf(option.value, into);
    }
  }
  return into;
}

const parse = (language: string, message: string) =>
  new IntlMessageFormat(message, LANGUAGE_LOCALES[language as keyof typeof LANGUAGE_LOCALES], undefined, {
    ignoreTag: true,
  }).getAst();

describe('catalogues', () => {
  it('are one folder per supported language, each with every namespace', () => {
    const folders = fs.readdirSync(root).filter((f) => fs.statSync(path.join(root, f)).isDirectory());
    expect(folders.sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
    expect(namespaces.sort()).toEqual(['messages', 'portal']);
    for (const language of SUPPORTED_LANGUAGES) {
      for (const namespace of namespaces)
        expect(fs.existsSync(path.join(root, language, `${namespace}.json`))).toBe(true);
    }
  });

  for (const namespace of namespaces) {
    const english = read('en', namespace);
    for (const language of SUPPORTED_LANGUAGES) {
      describe(`${language}/${namespace}.json`, () => {
        const catalogue = read(language, namespace);

        it("has English's keys, none missing and none extra", () => {
          expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
        });

        it("is valid ICU, with English's arguments", () => {
          const problems: string[] = [];
          for (const [key, message] of Object.entries(catalogue)) {
            let used: Set<string>;
            try {
              used = argumentsOf(parse(language, message));
            } catch (err) {
              problems.push(`${key}: not ICU (${(err as Error).message})`);
              continue;
            }
            if (english[key] === undefined) continue;
            const wanted = argumentsOf(parse('en', english[key]));
            const missing = [...wanted].filter((a) => !used.has(a));
            const extra = [...used].filter((a) => !wanted.has(a) && !OPTIONAL_ARGUMENTS.has(a));
            if (missing.length) problems.push(`${key}: lacks {${missing.join('}, {')}}`);
            if (extra.length) problems.push(`${key}: has {${extra.join('}, {')}} which English has not`);
          }
          expect(problems).toEqual([]);
        });

        it('has no empty string', () => {
          expect(Object.entries(catalogue).filter(([, v]) => v.trim() === '')).toEqual([]);
        });
      });
    }
  }
});
