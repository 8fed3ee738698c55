import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGES,
  RTL_LANGUAGES,
  type Language,
} from '@refract/contracts';
import { LANGUAGE_STORAGE_KEY, uiStrings, type Strings } from './locale-chunks';

const load = (module: unknown) => (module as { default: Strings }).default;

/**
 * The legal pages are long, so they live in files of their own and are fetched, under the
 * `legal` key, when one is opened (the interface's own strings: locale-chunks.ts).
 */
const LEGAL_STRINGS = import.meta.glob<false, string, unknown>('../locales/legal/*.json');

async function loadStrings(language: Language) {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  i18n.addResourceBundle(language, 'translation', await uiStrings(language), true, false);
}

/** The legal texts of a language, added under `legal` (see features/legal). */
export async function loadLegalTexts(language: Language) {
  if (i18n.exists('legal.lastUpdated', { lng: language, fallbackLng: false })) return;
  const legal = load(await LEGAL_STRINGS[`../locales/legal/${language}.json`]!());
  i18n.addResourceBundle(language, 'translation', { legal }, true, false);
}

export const hasLegalTexts = (language: Language) =>
  i18n.exists('legal.lastUpdated', { lng: language, fallbackLng: false });

export function directionOf(language: Language): 'rtl' | 'ltr' {
  return RTL_LANGUAGES.includes(language) ? 'rtl' : 'ltr';
}

/**
 * The page's language and direction, and a cookie naming the language, so the server sends
 * the page prerendered in it next time (apps/server/src/plugins/web-app.ts). Nothing when
 * there is no document (pages prerendered at build time, src/prerender).
 */
function applyToDocument(language: Language) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
  document.cookie = `${LANGUAGE_STORAGE_KEY}=${language}; path=/; max-age=31536000; samesite=lax`;
}

/** Switches to `language` once its strings are in (remembered by setLanguage). */
export async function switchLanguage(language: Language) {
  await loadStrings(language);
  await i18n.changeLanguage(language);
}

export async function setLanguage(language: Language) {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  await switchLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

i18n.on('languageChanged', (language) => {
  if (isLanguage(language)) applyToDocument(language);
});

/**
 * Starts i18next with the visitor's language, fetched first: app/start.tsx renders once this
 * resolves. English, the fallback for a key a translation lacks, follows without holding up
 * the first paint (every language has every key; locales.test.ts checks).
 */
export async function startI18n(language: Language) {
  await i18n.use(initReactI18next).init({
    resources: {},
    partialBundledLanguages: true,
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await loadStrings(language);
  await i18n.changeLanguage(language);
  applyToDocument(currentLanguage());
  if (language !== DEFAULT_LANGUAGE) void loadStrings(DEFAULT_LANGUAGE);
}

export default i18n;
