export const LANGUAGES = ['en', 'ar', 'zh', 'ja', 'it', 'es', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const RTL_LANGUAGES: readonly Language[] = ['ar'];

/** Each language named in itself, for the language selector. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  ar: 'العربية',
  zh: '中文',
  ja: '日本語',
  it: 'Italiano',
  es: 'Español',
  de: 'Deutsch',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
