import { KB, type Language } from '@refract/contracts';
import { currentLanguage, directionOf } from './i18n';

/**
 * Text that reads left to right whatever the page (a card number, a code), isolated with
 * Unicode's LRI…PDI so an Arabic sentence keeps "4000 0000 0000 0002" in its order.
 */
export const leftToRight = (text: string) => `\u2066${text}\u2069`;

/** `leftToRight` in a right-to-left language; in others the text as it is. */
const isolatedIn = (language: Language, text: string) =>
  directionOf(language) === 'rtl' ? leftToRight(text) : text;

/** A date in the user's language, e.g. "25 November 2026" / "2026年11月25日". */
export function formatDate(
  iso: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'long' },
): string {
  return new Intl.DateTimeFormat(currentLanguage(), options).format(new Date(iso));
}

/**
 * Dollars as the user's language writes them ($4.99, 4,99 $, ‏4.99 US$…). On a right-to-left
 * page the currency's sign is isolated left to right: "US$" is Latin letters and a sign the
 * bidirectional algorithm would split, drawing "$US".
 */
export function formatMoney(dollars: number, language = currentLanguage()): string {
  const parts = new Intl.NumberFormat(language, {
    style: 'currency',
    currency: 'USD',
  }).formatToParts(dollars);
  return parts
    .map((part) => (part.type === 'currency' ? isolatedIn(language, part.value) : part.value))
    .join('');
}

/** A time to wait in the user's language: "40 seconds" under two minutes, "9 minutes" after. */
export function formatWait(seconds: number): string {
  const minutes = seconds >= 120;
  return new Intl.NumberFormat(currentLanguage(), {
    style: 'unit',
    unit: minutes ? 'minute' : 'second',
    unitDisplay: 'long',
  }).format(minutes ? Math.round(seconds / 60) : Math.ceil(seconds));
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(currentLanguage()).format(value);
}
/**
 * 1500 → "1.5 KB", in the user's number format and decimal units (contracts' sizes.ts),
 * isolated left to right on a right-to-left page (an Arabic sentence would draw "KB 1.5").
 */
export function formatBytes(bytes: number, language = currentLanguage()): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= KB && unit < units.length - 1) {
    value /= KB;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: digits });
  return isolatedIn(language, `${number.format(value)} ${units[unit]}`);
}

/** A day in numbers, in the language's order: 25-11-2026, 25/11/2026, 2026/11/25… */
export function formatDay(iso: string): string {
  return new Intl.DateTimeFormat(currentLanguage(), {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date(iso));
}

/** A day and a time to the minute, in the language's own way. */
export function formatDayTime(iso: string): string {
  return new Intl.DateTimeFormat(currentLanguage(), {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** Cents as money: 499 → $4.99 (amounts are stored in minor units). */
export const formatCents = (cents: number, language = currentLanguage()) =>
  formatMoney(cents / 100, language);

/**
 * A country as the user gave it, by its name in the page's language when it is an ISO 3166
 * code ("JP" → "Japan", "اليابان"); "—" when not given.
 */
export function formatCountry(country: string | null | undefined): string {
  const given = country?.trim();
  if (!given) return '—';
  if (!/^[a-z]{2}$/i.test(given)) return given;
  try {
    return (
      new Intl.DisplayNames([currentLanguage()], { type: 'region' }).of(given.toUpperCase()) ??
      given
    );
  } catch {
    return given;
  }
}

/** The sandbox's test cards, as the hints show them: on one line (no-break spaces), in order. */
export const TEST_CARD_VALUES = {
  paying: leftToRight('4242\u00a04242\u00a04242\u00a04242'),
  declined: leftToRight('4000\u00a00000\u00a00000\u00a00002'),
};
