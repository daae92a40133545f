import { z } from 'zod';

export const limitParam = (max: number, fallback: number) =>
  z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(max, `limit must be at most ${max}`)
    .default(fallback);

export const offsetParam = z.coerce
  .number({ message: 'offset must be a number' })
  .int('offset must be a whole number')
  .min(0, 'offset must be 0 or more')
  .max(10_000_000, 'offset is too large')
  .default(0);

/** Query booleans arrive as text. */
export const booleanParam = z
  .enum(['true', 'false'], { message: "must be 'true' or 'false'" })
  .transform((v) => v === 'true');
