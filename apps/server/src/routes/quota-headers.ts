import type { FastifyReply } from 'fastify';
import type { QuotaStatus } from '@refract/contracts';

/** Every metered response says where the caller stands: limit (-1: unlimited), remaining, reset time. */
export function setQuotaHeaders(reply: FastifyReply, status: QuotaStatus) {
  reply.header('x-quota-limit', String(status.quota));
  reply.header('x-quota-remaining', String(status.remaining));
  reply.header('x-quota-reset', status.resetsAt);
}
