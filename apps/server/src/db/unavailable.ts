/**
 * Whether an error means the database could not be reached or did not answer in time (as
 * opposed to a bug or a bad query): such a request gets 503 service_unavailable with
 * Retry-After, so a client or load balancer tries again, instead of a 500.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  // SQLite: another process held the file past busy_timeout.
  'SQLITE_BUSY',
]);

/**
 * PostgreSQL's own codes: connection exceptions (class 08), query_canceled (57014, our
 * statement_timeout), the server shutting down or starting (57P01–57P03), too many
 * connections (53300).
 */
const POSTGRES_CODE = /^(08...|57014|57P0[123]|53300)$/;

/** What node-postgres says when it gave up itself (connect or query deadline, lost socket). */
const DRIVER_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code && (NETWORK_CODES.has(code) || POSTGRES_CODE.test(code))) return true;
  if (DRIVER_MESSAGE.test(err.message)) return true;
  // Several addresses tried at once (localhost: ::1 and 127.0.0.1) fail together.
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnavailable);
  return false;
}
