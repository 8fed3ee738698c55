export interface Period {
  start: Date;
  end: Date;
}

/** `months` after `date` in UTC, clamping the day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const target = new Date(date.getTime());
  const day = date.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

/** The calendar month around `now`, in UTC: the Basic plan's period. */
export function calendarMonth(now: Date): Period {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { start, end: addMonths(start, 1) };
}

/**
 * The billing period around `now` for a subscription anchored at `anchor`: whole steps of
 * `monthsPerPeriod` (1 for monthly, 12 for annual), each counted from the anchor so that
 * day clamping never drifts (31 Jan → 28 Feb → 31 Mar).
 */
export function billingPeriod(anchor: Date, monthsPerPeriod: number, now: Date): Period {
  const monthsApart =
    (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 +
    (now.getUTCMonth() - anchor.getUTCMonth());
  let k = Math.floor(monthsApart / monthsPerPeriod);
  while (k > 0 && addMonths(anchor, k * monthsPerPeriod) > now) k -= 1;
  while (addMonths(anchor, (k + 1) * monthsPerPeriod) <= now) k += 1;
  return {
    start: addMonths(anchor, k * monthsPerPeriod),
    end: addMonths(anchor, (k + 1) * monthsPerPeriod),
  };
}
