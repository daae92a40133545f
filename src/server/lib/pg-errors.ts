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
