type PgError = { code?: string; constraint?: string };

/** The unique constraint a failed statement broke, if that is why it failed (drizzle wraps pg's error). */
export function violatedUniqueConstraint(err: unknown): string | undefined {
  const e = err as PgError & { cause?: PgError };
  const pg = e.code === '23505' ? e : e.cause?.code === '23505' ? e.cause : undefined;
  return pg ? (pg.constraint ?? '') : undefined;
}

/** The foreign key a failed statement broke (e.g. a referenced row deleted meanwhile), if that is why. */
export function violatedForeignKey(err: unknown): string | undefined {
  const e = err as PgError & { cause?: PgError };
  const pg = e.code === '23503' ? e : e.cause?.code === '23503' ? e.cause : undefined;
  return pg ? (pg.constraint ?? '') : undefined;
}

/**
 * SQLSTATEs that mean "the database is not there right now", not "this statement is wrong":
 * class 08 (connection exception), 57P01 admin_shutdown (a restart cut the connection), 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up or shutting down), 53300
 * too_many_connections.
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Node's socket errors on the way to PostgreSQL. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** What pg and pg-pool throw, without a code, when a connection ends or cannot be had in time. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // "unexpectedly", "due to connection timeout"
  /^timeout exceeded when trying to connect$/, // pg-pool's connectionTimeoutMillis
  /is not queryable$/, // "Client has encountered a connection error and is not queryable"
  /^Client was closed and is not queryable$/,
];

/**
 * Whether `err` (or what it wraps: drizzle's DrizzleQueryError carries pg's error as `cause`, an
 * AggregateError from a dual-stack connect carries its attempts) says the database cannot be
 * reached, so the request may succeed when retried: the error plugin answers 503 with Retry-After.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') {
    if (UNAVAILABLE_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code) || SOCKET_CODES.has(e.code)) return true;
  }
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
