import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@refract/contracts';

export const LANGUAGE_STORAGE_KEY = 'refract.language';

export type Strings = Record<string, unknown>;

/**
 * One chunk per language, fetched when needed: a visitor downloads their own language only
 * (all seven in the first script were a quarter of it). Kept apart from i18n.ts, which needs
 * i18next, so the first script can start this download before the app's own script is in.
 */
const UI_STRINGS = import.meta.glob<Strings>('../locales/*.json', { import: 'default' });

export const uiStrings = (language: Language) => UI_STRINGS[`../locales/${language}.json`]!();

/**
 * A visitor's remembered choice (local storage, else the cookie set beside it, which the server
 * reads to pick the prerendered page: the two must agree, or the page is drawn again in another
 * language), else the browser's language when we have it, else English.
 */
export function initialLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  const cookie = document.cookie
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === LANGUAGE_STORAGE_KEY)?.[1];
  if (isLanguage(cookie)) return cookie;
  const browser = navigator.language.slice(0, 2);
  return isLanguage(browser) ? browser : DEFAULT_LANGUAGE;
}
