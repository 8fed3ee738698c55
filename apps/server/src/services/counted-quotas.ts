import type { Service } from '@refract/contracts';
import type { UserRow } from '../db/repositories/users-repository.js';
import { AppError } from '../lib/app-error.js';
import type { Metrics } from '../metrics/metrics.js';
import type { QuotaService } from './quota-service.js';

/**
 * The quota service, with its charges and refusals counted by service for /metrics: a use held
 * at submit (one paid by a tracked use is not charged twice) or tracked from the browser, and a
 * `quota_exceeded`.
 */
export function countedQuotas(
  quotas: QuotaService,
  metrics: Pick<Metrics, 'charged' | 'refused'>,
): QuotaService {
  async function counted<T>(
    service: Service,
    charge: () => Promise<T>,
    count: (value: T) => number,
  ) {
    try {
      const value = await charge();
      metrics.charged(service, count(value));
      return value;
    } catch (err) {
      if (err instanceof AppError && err.code === 'quota_exceeded') metrics.refused(service);
      throw err;
    }
  }
  return {
    ...quotas,
    reserve: (user: UserRow, service: Service, count: number) =>
      counted(
        service,
        () => quotas.reserve(user, service, count),
        (reservation) => (reservation.tracked ? 0 : count),
      ),
    track: (user: UserRow, service: Service, count: number) =>
      counted(
        service,
        () => quotas.track(user, service, count),
        () => count,
      ),
  };
}
