import type { QuotaStatus } from '@refract/contracts';

/**
 * Where the caller stands, on every metered answer (success or quota_exceeded): limit
 * (-1: unlimited), uses remaining, and when the period resets.
 */
export function quotaHeaders(status: QuotaStatus): Record<string, string> {
  return {
    'x-quota-limit': String(status.quota),
    'x-quota-remaining': String(status.remaining),
    'x-quota-reset': status.resetsAt,
  };
}
