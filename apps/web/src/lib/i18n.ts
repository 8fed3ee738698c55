import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGES,
  RTL_LANGUAGES,
  type Language,
} from '@refract/contracts';
import en from '../locales/en.json';
import ar from '../locales/ar.json';
import zh from '../locales/zh.json';
import ja from '../locales/ja.json';
import it from '../locales/it.json';
import es from '../locales/es.json';
import de from '../locales/de.json';
import legalEn from '../locales/legal/en.json';
import legalAr from '../locales/legal/ar.json';
import legalZh from '../locales/legal/zh.json';
import legalJa from '../locales/legal/ja.json';
import legalIt from '../locales/legal/it.json';
import legalEs from '../locales/legal/es.json';
import legalDe from '../locales/legal/de.json';

const STORAGE_KEY = 'refract.language';

/** The legal pages are long, so they live in files of their own, under the `legal` key. */
export const resources = {
  en: { ...en, legal: legalEn },
  ar: { ...ar, legal: legalAr },
  zh: { ...zh, legal: legalZh },
  ja: { ...ja, legal: legalJa },
  it: { ...it, legal: legalIt },
  es: { ...es, legal: legalEs },
  de: { ...de, legal: legalDe },
} satisfies Record<Language, unknown>;

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
  await i18n.changeLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

i18n.on('languageChanged', (language) => {
  if (isLanguage(language)) applyToDocument(language);
});

// Resources are bundled, so initialisation completes synchronously before the first render.
void i18n.use(initReactI18next).init({
  initAsync: false,
  resources: Object.fromEntries(
    Object.entries(resources).map(([language, translation]) => [language, { translation }]),
  ),
  lng: initialLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
});
applyToDocument(currentLanguage());

export default i18n;
