import { z } from 'zod';

/** Every failure the API answers: `{message, code?, errors?}` with a 4xx/5xx status. */
export const ErrorReply = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorReply = z.infer<typeof ErrorReply>;

/** The server refuses text carrying U+0000 anywhere in a request (PostgreSQL text cannot hold it). */
export const NUL_CHARACTER_MESSAGE = 'Text must not contain the NUL character';

export const MessageReply = z.object({ message: z.string() });
export type MessageReply = z.infer<typeof MessageReply>;

export const Id = z.uuid({ message: 'Invalid id' });
export const IdParams = z.object({ id: Id });

/** Times travel as UTC ISO 8601 strings. */
export const Timestamp = z.string();

/** An optional text field: blank becomes null, over-long is refused with the given message. */
export function optionalText(max: number, tooLong: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim() : v),
    z.string().max(max, tooLong).nullish(),
  );
}

/** An optional email: blank or null becomes null, otherwise it must be valid. */
export function optionalEmail(invalid: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.email(invalid).max(255, 'Email must be less than 255 characters').nullish(),
  );
}

/** A date (YYYY-MM-DD) or an ISO 8601 date-time with an offset, as query parameters carry them. */
const ISO_DATE_OR_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;
/**
 * The instants PostgreSQL takes as Date#toISOString writes them (no year 0, no 5-digit years),
 * a day inside either end so an organization's timezone cannot push a day's bounds out.
 */
const EARLIEST_DATE = Date.parse('0001-01-02T00:00:00Z');
const LATEST_DATE = Date.parse('9999-12-30T23:59:59.999Z');

/** A day of the calendar (Date.parse rolls 2024-02-30 over to March 1) in the years above. */
function isIsoDateOrDateTime(v: string) {
  if (!ISO_DATE_OR_DATE_TIME.test(v)) return false;
  const time = Date.parse(v);
  const day = v.slice(0, 10);
  return time >= EARLIEST_DATE && time <= LATEST_DATE && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);
}
export const isoDateParam = (message: string) => z.string().refine(isIsoDateOrDateTime, message);
