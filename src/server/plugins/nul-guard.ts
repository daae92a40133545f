import type { FastifyInstance } from 'fastify';
import { NUL_CHARACTER_MESSAGE } from '../../contract';
import { AppError } from '../lib/errors';

/**
 * PostgreSQL text cannot hold U+0000: a NUL reaching a query fails it (a 500), and one in a list
 * filter broke the history export mid-stream. No field of the product has a use for it, so any
 * request carrying one in its path, query or JSON body (keys included) is refused with a 400
 * before any route runs, whatever its schema says.
 */
export function rejectNulCharacters(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw new AppError(400, NUL_CHARACTER_MESSAGE, 'nul_character');
    }
  });
}

/** Walks without recursion: a deeply nested body must not overflow the stack here. */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) pending.push(item);
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [key, inner] of Object.entries(v)) {
        if (key.includes('\u0000')) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}
