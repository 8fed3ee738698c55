import { describe, expect, it } from 'vitest';
import { formatBytes, formatCents, formatWait } from './format';

describe('formatWait', () => {
  it('says seconds under two minutes and whole minutes after, in words', () => {
    expect(formatWait(16)).toBe('16 seconds');
    expect(formatWait(119.2)).toBe('120 seconds');
    expect(formatWait(540)).toBe('9 minutes');
  });
});

describe('sizes and prices on a right-to-left page', () => {
  const LRI = '\u2066';
  const PDI = '\u2069';

  it('isolates a size and the currency sign left to right in Arabic, and nothing in English', () => {
    expect(formatBytes(7_600_000, 'en')).toBe('7.6 MB');
    expect(formatCents(499, 'en')).toBe('$4.99');
    // Unisolated, an Arabic sentence drew "MB 7.6" and "$US 4.99".
    expect(formatBytes(7_600_000, 'ar')).toBe(`${LRI}7.6 MB${PDI}`);
    expect(formatCents(499, 'ar')).toMatch(new RegExp(`4\\.99\\s${LRI}US\\$${PDI}$`));
  });
});
