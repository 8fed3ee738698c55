import { UNLIMITED, type QuotaStatus } from '@refract/contracts';

/**
 * Where the caller stands, on every metered answer (success, quota_exceeded, or a failure whose
 * use was given back): limit (-1: unlimited), uses remaining, and when the period resets.
 */
export function quotaHeaders(status: QuotaStatus): Record<string, string> {
  return {
    'x-quota-limit': String(status.quota),
    'x-quota-remaining': String(status.remaining),
    'x-quota-reset': status.resetsAt,
  };
}

/** The status once a held charge of `count` uses has been given back (the work failed). */
export function givenBack(status: QuotaStatus, count = 1): QuotaStatus {
  const used = Math.max(0, status.used - count);
  const remaining = status.quota === UNLIMITED ? UNLIMITED : Math.max(0, status.quota - used);
  return { ...status, used, remaining };
}
