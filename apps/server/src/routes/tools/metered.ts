import type { FastifyReply } from 'fastify';
import type { Service } from '@refract/contracts';
import type { UserRow } from '../../db/repositories/users-repository.js';
import type { Services } from '../../services/services.js';
import { givenBack, quotaHeaders } from '../../lib/quota-headers.js';
import { contentDisposition } from '../../lib/result-name.js';

/**
 * Runs one use of a service under a quota reservation: refused up front when the quota is
 * spent (the error carries the quota headers), given back when `work` fails, confirmed when it
 * succeeds; either way the answer carries the quota headers. Every image tool and HTML to image
 * come through here, so this is where a user's repeated timeouts are counted, and where a user
 * backing off after them is refused, before anything is reserved (services/timeout-backoff.ts).
 */
export async function runMetered<T>(
  services: Services,
  user: UserRow,
  service: Service,
  reply: FastifyReply,
  work: () => Promise<T>,
  mapError: (err: unknown) => unknown = (err) => err,
): Promise<T> {
  services.timeouts.check(user.id);
  const reservation = await services.quotas.reserve(user, service, 1);
  let result: T;
  try {
    result = await work();
  } catch (err) {
    await reservation.release();
    reply.headers(quotaHeaders(givenBack(reservation.status)));
    throw services.timeouts.record(user.id, mapError(err));
  }
  try {
    await reservation.confirm();
  } catch (err) {
    // The database went away after the work was done: the user is answered 503, uncharged.
    await reservation.release();
    throw err;
  }
  reply.headers(quotaHeaders(reservation.status));
  return result;
}

/**
 * The headers of every result file: always an attachment (ASCII name, and the UTF-8 one when it
 * differs), never sniffed, so a result is never shown inline (an SVG could run script).
 */
export const downloadHeaders = (contentType: string, filename: string) => ({
  'content-type': contentType,
  'content-disposition': contentDisposition(filename),
  'x-content-type-options': 'nosniff',
});
