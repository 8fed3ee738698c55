import { describe, expect, it } from 'vitest';
import { addMonths, billingPeriod, calendarMonth } from './quota-period.js';

const d = (iso: string) => new Date(iso);

describe('quota periods', () => {
  it('adds months with the day clamped to the month', () => {
    expect(addMonths(d('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(d('2028-01-31T10:00:00Z'), 1).toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(addMonths(d('2026-12-15T00:00:00Z'), 1).toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(addMonths(d('2026-03-31T00:00:00Z'), -1).toISOString()).toBe('2026-02-28T00:00:00.000Z');
  });

  it('gives the UTC calendar month for Basic', () => {
    const p = calendarMonth(d('2026-11-30T23:59:59.999Z'));
    expect(p.start.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(p.end.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(calendarMonth(d('2026-12-01T00:00:00Z')).start.toISOString()).toBe(
      '2026-12-01T00:00:00.000Z',
    );
  });

  it('counts monthly billing periods from the anchor without drift', () => {
    const anchor = d('2026-01-31T12:00:00Z');
    const feb = billingPeriod(anchor, 1, d('2026-03-01T00:00:00Z'));
    expect(feb.start.toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(feb.end.toISOString()).toBe('2026-03-31T12:00:00.000Z');
    const mar = billingPeriod(anchor, 1, d('2026-03-31T12:00:00Z'));
    expect(mar.start.toISOString()).toBe('2026-03-31T12:00:00.000Z');
  });

  it('starts a new period exactly at the boundary', () => {
    const anchor = d('2026-05-10T08:00:00Z');
    expect(billingPeriod(anchor, 1, d('2026-06-10T07:59:59.999Z')).start.toISOString()).toBe(
      '2026-05-10T08:00:00.000Z',
    );
    expect(billingPeriod(anchor, 1, d('2026-06-10T08:00:00Z')).start.toISOString()).toBe(
      '2026-06-10T08:00:00.000Z',
    );
  });

  it('uses a whole year for annual subscriptions', () => {
    const p = billingPeriod(d('2026-02-15T00:00:00Z'), 12, d('2027-02-14T23:00:00Z'));
    expect(p.start.toISOString()).toBe('2026-02-15T00:00:00.000Z');
    expect(p.end.toISOString()).toBe('2027-02-15T00:00:00.000Z');
  });
});
