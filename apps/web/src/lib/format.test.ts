import { describe, expect, it } from 'vitest';
import { formatWait } from './format';

describe('formatWait', () => {
  it('says seconds under two minutes and whole minutes after, in words', () => {
    expect(formatWait(16)).toBe('16 seconds');
    expect(formatWait(119.2)).toBe('120 seconds');
    expect(formatWait(540)).toBe('9 minutes');
  });
});
