import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, LANGUAGES } from '@refract/contracts';

type Tree = { [key: string]: string | Tree };

const readJson = (path: string): Tree =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));

/** A language's messages as the app loads them: the main file, and the legal pages under `legal`. */
function load(language: string): Tree {
  return { ...readJson(`./${language}.json`), legal: readJson(`./legal/${language}.json`) };
}

/** Every leaf as "a.b.c" → value. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** i18next plural forms (key_one, key_few, ...) differ by language; compare their base keys. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const baseKeys = (keys: Iterable<string>) =>
  [...new Set([...keys].map((k) => k.replace(PLURAL, '')))].sort();

const placeholders = (text: string) =>
  [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

const english = flatten(load('en'));

/** Values that are rightly the same in every language: the brand. */
const SAME_IN_EVERY_LANGUAGE = new Set(['app.name']);

/** Nothing to translate once the placeholders are gone (e.g. "{{used}} / {{quota}}"). */
const hasWords = (text: string) => /\p{L}/u.test(text.replace(/{{\s*\w+\s*}}/g, ''));

/**
 * `{{count}}` strings whose count stands alone ("File 2 of 10"), so no word agrees with it.
 * Any other counted string needs plural forms.
 */
const COUNT_WITHOUT_NOUN = new Set(['batch.fileOf']);

describe('plural forms', () => {
  it('every English string with a {{count}} beside a word has plural forms', () => {
    const missing = [...english]
      .filter(([key, value]) => value.includes('{{count}}') && !PLURAL.test(key))
      .map(([key]) => key)
      .filter((key) => !COUNT_WITHOUT_NOUN.has(key));
    expect(missing).toEqual([]);
  });

  // Arabic needs zero, one, two, few, many and other; Spanish and Italian one, many and other;
  // Japanese and Chinese other only: as Intl.PluralRules, which i18next uses, chooses them.
  it.each(LANGUAGES)(
    '%s has each form its language chooses, for every counted string',
    (language) => {
      const keys = [...flatten(load(language)).keys()];
      const needed = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      const counted = [
        ...new Set(
          [...english.keys()].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')),
        ),
      ];
      const missing = counted.flatMap((base) =>
        needed.filter((form) => !keys.includes(`${base}_${form}`)).map((form) => `${base}_${form}`),
      );
      expect(missing).toEqual([]);
    },
  );
});

describe('translations', () => {
  it('English has a message for every error code', () => {
    for (const code of ERROR_CODES) expect(english.has(`errors.${code}`), code).toBe(true);
  });

  describe.each(LANGUAGES.filter((l) => l !== 'en'))('%s', (language) => {
    const translated = flatten(load(language));

    it('has exactly the English keys (plural forms as the language needs them)', () => {
      expect(baseKeys(translated.keys())).toEqual(baseKeys(english.keys()));
      for (const key of english.keys()) {
        if (PLURAL.test(key)) expect(translated.has(key.replace(PLURAL, '_other')), key).toBe(true);
      }
    });

    it('keeps every placeholder (a plural form may say its number in words: "ملفان")', () => {
      for (const [key, value] of english) {
        const counterpart =
          translated.get(key) ?? translated.get(key.replace(PLURAL, '_other')) ?? '';
        const expected = placeholders(value).filter((p) => !PLURAL.test(key) || p !== 'count');
        expect(
          placeholders(counterpart).filter((p) => !PLURAL.test(key) || p !== 'count'),
          key,
        ).toEqual(expected);
      }
    });

    it('is a real translation: at most 10% of values identical to English', () => {
      const same = [...english]
        .filter(([key, value]) => !SAME_IN_EVERY_LANGUAGE.has(key) && hasWords(value))
        .filter(([key, value]) => translated.get(key) === value)
        .map(([key]) => key);
      expect(same.length / english.size, same.join(', ')).toBeLessThanOrEqual(0.1);
    });
  });
});
