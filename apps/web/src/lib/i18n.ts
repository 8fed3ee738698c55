import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGES,
  RTL_LANGUAGES,
  type Language,
} from '@refract/contracts';

const STORAGE_KEY = 'refract.language';

type Strings = Record<string, unknown>;
const load = (module: unknown) => (module as { default: Strings }).default;

/**
 * One chunk per language, fetched when needed: a visitor downloads their own language only
 * (all seven in the first script were a quarter of it). The legal pages are long, so they
 * live in files of their own and are fetched, under the `legal` key, when one is opened.
 */
const UI_STRINGS = import.meta.glob<false, string, unknown>('../locales/*.json');
const LEGAL_STRINGS = import.meta.glob<false, string, unknown>('../locales/legal/*.json');

async function loadStrings(language: Language) {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  const strings = load(await UI_STRINGS[`../locales/${language}.json`]!());
  i18n.addResourceBundle(language, 'translation', strings, true, false);
}

/** The legal texts of a language, added under `legal` (see features/legal). */
export async function loadLegalTexts(language: Language) {
  if (i18n.exists('legal.lastUpdated', { lng: language, fallbackLng: false })) return;
  const legal = load(await LEGAL_STRINGS[`../locales/legal/${language}.json`]!());
  i18n.addResourceBundle(language, 'translation', { legal }, true, false);
}

export const hasLegalTexts = (language: Language) =>
  i18n.exists('legal.lastUpdated', { lng: language, fallbackLng: false });

/** A visitor's remembered choice, else the browser's language when we have it, else English. */
function initialLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  const browser = navigator.language.slice(0, 2);
  return isLanguage(browser) ? browser : DEFAULT_LANGUAGE;
}

export function directionOf(language: Language): 'rtl' | 'ltr' {
  return RTL_LANGUAGES.includes(language) ? 'rtl' : 'ltr';
}

function applyToDocument(language: Language) {
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
}

export async function setLanguage(language: Language) {
  localStorage.setItem(STORAGE_KEY, language);
  await loadStrings(language);
  await i18n.changeLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

i18n.on('languageChanged', (language) => {
  if (isLanguage(language)) applyToDocument(language);
});

/**
 * Starts i18next with the visitor's language, fetched first: main.tsx renders once this
 * resolves. English, the fallback for a key a translation lacks, follows without holding up
 * the first paint (every language has every key; locales.test.ts checks).
 */
export async function startI18n() {
  const language = initialLanguage();
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
