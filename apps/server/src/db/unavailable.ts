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
 * PostgreSQL's own codes: connection exceptions (class 08), insufficient resources (class 53:
 * too many connections, out of memory, disk full), query_canceled (57014, our
 * statement_timeout), the server shutting down, restarting or starting (57P01–57P03), an
 * idle session ended (57P05), and a standby refusing writes while a failover completes (25006).
 */
const POSTGRES_CODE = /^(08...|53...|57014|57P0[1235]|25006)$/;

/**
 * 55000 (object not in prerequisite state) is an outage only when the database refuses new
 * connections (`ALTER DATABASE … ALLOW_CONNECTIONS false`, a database being dropped or
 * restored); otherwise it is a bug.
 */
const NOT_ACCEPTING = /is not currently accepting connections/;

/** What node-postgres says when it gave up itself (connect or query deadline, lost socket). */
const DRIVER_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code && (NETWORK_CODES.has(code) || POSTGRES_CODE.test(code))) return true;
  if (code === '55000' && NOT_ACCEPTING.test(err.message)) return true;
  if (DRIVER_MESSAGE.test(err.message)) return true;
  // Several addresses tried at once (localhost: ::1 and 127.0.0.1) fail together.
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnavailable);
  return false;
}
